import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { migrate, SCHEMA_VERSION } from '../../durable-objects/task-schema.ts';
import { TaskObject } from '../../durable-objects/task.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskStore } from '../../durable-objects/task-store.ts';
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

  it('can be made in two stages, which end where the fresh schema does', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_, state) => {
      const sql = state.storage.sql;
      empty(sql);
      expect(migrate(sql)).toBe('complete');
      const whole = describeSchema(sql);

      empty(sql);
      expect(migrate(sql, 'first-when-new')).toBe('first');
      const first = describeSchema(sql);
      // sqlite_sequence is SQLite's, left from the whole schema: DROP TABLE cannot remove it.
      expect(first.objects.filter((row) => row.type === 'table' && !row.name.startsWith('sqlite_')).map((row) => row.name)).toEqual(['meta', 'task']);
      expect([first.version, first.stage]).toEqual([undefined, 'first']);
      expect(first.columns['task']).toEqual(whole.columns['task']);

      expect(migrate(sql, 'first-when-new')).toBe('complete');
      expect(describeSchema(sql)).toEqual(whole);
      expect(migrate(sql)).toBe('complete');
      expect(describeSchema(sql)).toEqual(whole);
    });
  });

  it('is completed by code that knows no stages, which runs every step on an object with no version', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), (_, state) => {
      const sql = state.storage.sql;
      empty(sql);
      migrate(sql);
      const whole = describeSchema(sql);
      empty(sql);
      migrate(sql, 'first-when-new');
      // An older deploy: no fresh schema, no stages, steps from version 0.
      migrate(sql, 'steps');
      const after = describeSchema(sql);
      expect({ ...after, stage: undefined }).toEqual(whole);
      // The marker it left counts for nothing once there is a version.
      expect(migrate(sql)).toBe('complete');
      expect({ ...describeSchema(sql), stage: undefined }).toEqual(whole);
    });
  });
});

describe("a task's creation", () => {
  it('on a new object answers a second delivery with the task the first stored', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (task, state) => {
      const request = { origin: 'api' as const, tenant: 'api:acme', repo: 'acme/widgets', request: 'Review the change.', agent: 'reviewer' };
      const first = await task.create(request, reviewer.agent, { indexReport: 'with-assembly' });
      await state.storage.deleteAlarm();
      const again = await task.create({ ...request, request: 'A redelivery.' }, reviewer.agent, { indexReport: 'with-assembly' });
      expect(again).toEqual({ id: first.id, status: 'pending', created: false });
      expect(state.storage.sql.exec('SELECT request FROM task').toArray().map((row) => JSON.parse(String(row['request'])).request)).toEqual(['Review the change.']);
    });
  });

  it('writes only the tables it needs, and the first call that uses the task completes the schema', async () => {
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (task, state) => {
      const request = { origin: 'api' as const, tenant: 'api:acme', repo: 'acme/widgets', request: 'Review the change.', agent: 'reviewer' };
      expect(await task.create(request, reviewer.agent, { indexReport: 'with-assembly' })).toMatchObject({ status: 'pending', created: true });
      expect(ownTables(state.storage.sql)).toEqual(['meta', 'task']);
      // The assembly it armed would read a repository this test does not have.
      await state.storage.deleteAlarm();

      expect(await task.describe('api:other')).toEqual({ status: 'not-found' });
      expect(await task.describe('api:acme')).toMatchObject({ status: 'pending' });
      expect(ownTables(state.storage.sql)).toEqual(ALL_TABLES);
      expect(await task.mailbox('api:acme', { from: '@octocat', text: 'Also check the README.', key: 'k1' })).toMatchObject({ status: 'ok', duplicate: false });
    });
  });
});

describe('a Task object starting on its stored state (a new isolate)', () => {
  const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'acme/widgets', request: 'Review the change.' });

  it('completes the schema of a task created in an isolate that was lost before any other call', async () => {
    await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const sql = state.storage.sql;
      empty(sql);
      expect(migrate(sql, 'first-when-new')).toBe('first');
      new TaskStore(sql).insertTask('t', request, Date.now(), Date.now() + 86_400_000);
      expect(ownTables(sql)).toEqual(['meta', 'task']);
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
      expect(ownTables(sql)).toEqual(['meta', 'task']);
      expect(sql.exec('SELECT COUNT(*) AS n FROM task').one()['n']).toBe(0);
      expect(await state.storage.getAlarm()).toBeNull();
    });
  });
});
