/**
 * @module durable-objects/sqlite-migrations
 * Versioned, idempotent schema setup for a SQLite-backed Durable Object. Each step runs once, in
 * order; `meta.schema_version` records how far a stored object got. A step is SQL, or a function
 * for rewrites SQL cannot express. Steps are synchronous, so each step and its version bump
 * commit together.
 */

export type Migration = string | ((sql: SqlStorage) => void);

/**
 * A fresh schema in two parts: `first` (what the object's first call writes, `meta` among it) and
 * `rest`. A new object may take `first` alone and the rest with its next migrate (`firstOnly`).
 */
export interface StagedSchema {
  first: string;
  rest: string;
}

export interface MigrationOptions {
  /**
   * Where the steps lead, for a new object in one go: every new object (every task) would
   * otherwise run each step and its version bump in turn (1.5-2 ms of CPU per webhook delivery,
   * see docs/development.md). Whoever passes it keeps it equal to the steps' outcome, and tests
   * that (test/tasks/task-schema.test.ts).
   */
  fresh?: string | StagedSchema;
  /**
   * A new object takes only `fresh.first`. Until its next migrate it has no `schema_version`:
   * it holds `schema_stage = 'first'` instead, which that migrate completes with `fresh.rest`. Code
   * that knows nothing of stages reads no version and runs every step, which are idempotent, so
   * an older deploy still completes such an object (and leaves the marker, which counts only
   * while there is no version).
   */
  firstOnly?: boolean;
}

/** `complete`: the object has every table of the schema; `first`: only `fresh.first` (see `firstOnly`). */
export type SchemaState = 'complete' | 'first';

const STAGE_KEY = 'schema_stage';

export function applyMigrations(sql: SqlStorage, migrations: readonly Migration[], options: MigrationOptions = {}): SchemaState {
  const fresh = typeof options.fresh === 'string' ? { first: options.fresh, rest: '' } : options.fresh;
  const staged = fresh !== undefined && fresh.rest !== '';
  if (fresh !== undefined && isEmpty(sql)) {
    if (staged && options.firstOnly) {
      // One exec: a new object's every statement counts on the accept path.
      sql.exec(`${fresh.first}\nINSERT INTO meta (key, value) VALUES ('${STAGE_KEY}', 'first');`);
      return 'first';
    }
    sql.exec(fresh.first);
    if (staged) sql.exec(fresh.rest);
    setVersion(sql, migrations.length);
    return 'complete';
  }
  sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0];
  if (row === undefined && staged && firstStageOnly(sql)) {
    sql.exec(fresh.rest);
    setVersion(sql, migrations.length);
    sql.exec('DELETE FROM meta WHERE key = ?', STAGE_KEY);
    return 'complete';
  }
  const current = row ? Number(row.value) : 0;
  if (current > migrations.length) throw new Error(`stored schema version ${current} is newer than this code (${migrations.length})`);
  for (let version = current; version < migrations.length; version++) {
    const step = migrations[version] ?? '';
    if (typeof step === 'string') sql.exec(step);
    else step(sql);
    setVersion(sql, version + 1);
  }
  return 'complete';
}

function setVersion(sql: SqlStorage, version: number): void {
  sql.exec("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", String(version));
}

function firstStageOnly(sql: SqlStorage): boolean {
  return sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', STAGE_KEY).toArray()[0]?.value === 'first';
}

/** No table of the object's own: the platform's (`_cf_…`) and SQLite's (`sqlite_…`) do not count. */
function isEmpty(sql: SqlStorage): boolean {
  const row = sql
    .exec<{ tables: number }>("SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .one();
  return row.tables === 0;
}
