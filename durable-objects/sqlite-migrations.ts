/**
 * @module durable-objects/sqlite-migrations
 * Versioned, idempotent schema setup for a SQLite-backed Durable Object. Each step runs once, in
 * order; `meta.schema_version` records how far a stored object got. A step is SQL, or a function
 * for rewrites SQL cannot express. Steps are synchronous, so each step and its version bump
 * commit together.
 */

export type Migration = string | ((sql: SqlStorage) => void);

export interface MigrationOptions {
  /**
   * The schema every step leads to, as one script, for an object that has stored nothing yet:
   * every new object (every task) would otherwise run each step and its version bump in turn
   * (1.5-2 ms of CPU per webhook delivery, see docs/development.md). Whoever passes it keeps it
   * equal to the steps' outcome, and tests that (test/tasks/task-schema.test.ts).
   */
  fresh?: string;
}

/**
 * An object with no `schema_version` takes every step from the first. That includes a Task object
 * a 12-05 build created in two stages (only `meta` and `task`, marked `schema_stage = 'first'`):
 * the steps are idempotent, so they complete it, and the marker is left to mean nothing.
 */
export function applyMigrations(sql: SqlStorage, migrations: readonly Migration[], options: MigrationOptions = {}): void {
  if (options.fresh !== undefined && isEmpty(sql)) {
    sql.exec(options.fresh);
    setVersion(sql, migrations.length);
    return;
  }
  sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0];
  const current = row ? Number(row.value) : 0;
  if (current > migrations.length) throw new Error(`stored schema version ${current} is newer than this code (${migrations.length})`);
  for (let version = current; version < migrations.length; version++) {
    const step = migrations[version] ?? '';
    if (typeof step === 'string') sql.exec(step);
    else step(sql);
    setVersion(sql, version + 1);
  }
}

function setVersion(sql: SqlStorage, version: number): void {
  sql.exec("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", String(version));
}

/** No table of the object's own: the platform's (`_cf_…`) and SQLite's (`sqlite_…`) do not count. */
function isEmpty(sql: SqlStorage): boolean {
  const row = sql
    .exec<{ tables: number }>("SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .one();
  return row.tables === 0;
}
