import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION } from '../../durable-objects/task-schema.ts';

interface Described {
  version: string | undefined;
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
  const version = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0]?.value;
  return { version, objects, columns };
}

/** Drops every table of the object's own, so the next migrate meets an object that never stored anything. */
function empty(sql: SqlStorage): void {
  const tables = sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").toArray();
  for (const { name } of tables) sql.exec(`DROP TABLE "${name}"`);
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
});
