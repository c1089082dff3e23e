import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { migrate, SCHEMA_VERSION } from '../../durable-objects/task-schema.ts';
import { TaskObject } from '../../durable-objects/task.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskStore } from '../../durable-objects/task-store.ts';
import { withoutFirstAttempt } from '../support/held-alarms.ts';
import { ownTables } from '../support/task-object.ts';

const ALL_TABLES = ['checks', 'focus', 'mailbox', 'meta', 'task', 'transcript', 'turns', 'usage'];
const reviewer = resolveAgent('reviewer');
if (!reviewer.ok) throw new Error(reviewer.error);

interface Described {
  version: string | undefined;
  stage: string | undefined;
  objects: Array<{ type: string; name: string; sql: string | null }>;
  columns: Record<string, unknown[]>;
}

/** Everything the schema is: each object's normalised SQL (constraints included) and each table's columns. */
function describeSchema(sql: SqlStorage): Described {
  const objects = sql
    .exec<{ type: string; name: string; sql: string | null }>("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY type, name")
    .toArray()
    // SQLite keeps the statement as written; ALTER TABLE splices its column into it.
    .map((row) => ({ ...row, sql: row.sql === null ? null : row.sql.replace(/\s+/g, '') }));
  const columns = Object.fromEntries(objects.filter((row) => row.type === 'table').map((row) => [row.name, sql.exec(`PRAGMA table_info("${row.name}")`).toArray()]));
  const meta = (key: string) => sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0]?.value;
  return { version: meta('schema_version'), stage: meta('schema_stage'), objects, columns };
}

/** Drops every table of the object's own, so the next migrate meets an object that never stored anything. */
function empty(sql: SqlStorage): void {
  for (const name of ownTables(sql)) sql.exec(`DROP TABLE "${name}"`);
}

describe("a Task object's schema", () => {
  it('is the same whether a new object takes the fresh schema or runs every step', async () => {
    const schemaOf = (how: 'fresh-when-new' | 'steps') =>
      runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_, state) => {
        empty(state.storage.sql);
        migrate(state.storage.sql, how);
        return describeSchema(state.storage.sql);
      });
    const [fresh, steps] = [await schemaOf('fresh-when-new'), await schemaOf('steps')];
    expect(fresh.version).toBe(String(SCHEMA_VERSION));
    expect(fresh.objects.map((row) => row.name)).toContain('task');
    expect(fresh).toEqual(steps);
  });

  it('takes the steps on an object that has stored something, and a second migrate changes nothing', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_, state) => {
      const sql = state.storage.sql;
      const before = describeSchema(sql);
      // An object from before the agent configuration was kept: version 4, no agent_config column.
      empty(sql);
      migrate(sql, 'steps');
      sql.exec('ALTER TABLE task DROP COLUMN agent_config');
      sql.exec("UPDATE meta SET value = '4' WHERE key = 'schema_version'");
      migrate(sql);
      expect(describeSchema(sql).columns['task']).toEqual(before.columns['task']);
      migrate(sql);
      expect(describeSchema(sql).version).toBe(String(SCHEMA_VERSION));
    });
  });

  it('completes an object a two-stage build left (meta and task only, marked first), since it has no version', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_, state) => {
      const sql = state.storage.sql;
      empty(sql);
      migrate(sql);
      const whole = describeSchema(sql);
      const task = sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'task'").one().sql;
      empty(sql);
      // What a 12-05 build stored for a task it created: two tables and the stage marker.
      sql.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); ${task}; INSERT INTO meta (key, value) VALUES ('schema_stage', 'first');`);
      migrate(sql);
      expect({ ...describeSchema(sql), stage: undefined }).toEqual(whole);
      migrate(sql);
      expect({ ...describeSchema(sql), stage: undefined }).toEqual(whole);
    });
  });
});

describe("a task's creation", () => {
  it('on a new object answers a second delivery with the task the first stored', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (task, state) => {
      const request = { origin: 'api' as const, tenant: 'api:acme', repo: 'acme/widgets', request: 'Review the change.', agent: 'reviewer' };
      const first = await withoutFirstAttempt(() => task.create(request, reviewer.agent, { indexReport: 'with-assembly' }));
      await state.storage.deleteAlarm();
      const again = await task.create({ ...request, request: 'A redelivery.' }, reviewer.agent, { indexReport: 'with-assembly' });
      expect(again).toEqual({ id: first.id, status: 'pending', created: false });
      expect(state.storage.sql.exec('SELECT request FROM task').toArray().map((row) => JSON.parse(String(row['request'])).request)).toEqual(['Review the change.']);
    });
  });
});

describe('a Task object starting on its stored state (a new isolate)', () => {
  const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'Review the change.' });

  it('completes the schema of a task a two-stage build created, and serves it', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const sql = state.storage.sql;
      const task = sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'task'").one().sql;
      empty(sql);
      sql.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); ${task}; INSERT INTO meta (key, value) VALUES ('schema_stage', 'first');`);
      new TaskStore(sql).insertTask('t', request, Date.now(), Date.now() + 86_400_000);
      const restarted = new TaskObject(state, env);
      expect(ownTables(sql)).toEqual(ALL_TABLES);
      expect(await restarted.mailbox('api:acme', { from: '@octocat', text: 'Also the README.' })).toMatchObject({ status: 'ok' });
    });
  });

  it('arms the alarm of a finished task whose listings are behind, and of no other', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const sql = state.storage.sql;
      empty(sql);
      migrate(sql);
      const store = new TaskStore(sql);
      const now = Date.now();
      store.insertTask('t', request, now, now + 86_400_000);
      await state.storage.deleteAlarm();
      // Pending: its own attempts arm what it needs; starting arms nothing.
      new TaskObject(state, env);
      await state.blockConcurrencyWhile(async () => {});
      expect(await state.storage.getAlarm()).toBeNull();
      // Ready, and never reported to its tenant's index.
      store.setStatus('ready', null, now);
      new TaskObject(state, env);
      await state.blockConcurrencyWhile(async () => {});
      expect(await state.storage.getAlarm()).toBeGreaterThanOrEqual(now);
    });
  });

  it('leaves a new object as it is, with no task and no alarm', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const sql = state.storage.sql;
      empty(sql);
      new TaskObject(state, env);
      await state.blockConcurrencyWhile(async () => {});
      expect(ownTables(sql)).toEqual(ALL_TABLES);
      expect(sql.exec('SELECT COUNT(*) AS n FROM task').one()['n']).toBe(0);
      expect(await state.storage.getAlarm()).toBeNull();
    });
  });
});
