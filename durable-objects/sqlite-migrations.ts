/**
 * @module durable-objects/sqlite-migrations
 * Versioned, idempotent schema setup for a SQLite-backed Durable Object. Each step runs once, in
 * order; `meta.schema_version` records how far a stored object got. A step is SQL, or a function
 * for rewrites SQL cannot express. Steps are synchronous, so each step and its version bump
 * commit together.
 */

export type Migration = string | ((sql: SqlStorage) => void);

export function applyMigrations(sql: SqlStorage, migrations: readonly Migration[]): void {
  sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0];
  const current = row ? Number(row.value) : 0;
  if (current > migrations.length) throw new Error(`stored schema version ${current} is newer than this code (${migrations.length})`);
  for (let version = current; version < migrations.length; version++) {
    const step = migrations[version] ?? '';
    if (typeof step === 'string') sql.exec(step);
    else step(sql);
    sql.exec("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", String(version + 1));
  }
}
