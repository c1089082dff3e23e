/**
 * @module durable-objects/task-schema
 * Versioned, idempotent SQLite schema of a Task object, applied inside `blockConcurrencyWhile`
 * in the constructor (see sqlite-migrations).
 */
import { upgradeLegacyItems } from './legacy-items.ts';
import { applyMigrations, type Migration } from './sqlite-migrations.ts';

const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE IF NOT EXISTS task (
     singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
     task_id TEXT NOT NULL,
     request TEXT NOT NULL,
     status TEXT NOT NULL,
     status_reason TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     commit_sha TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE TABLE IF NOT EXISTS transcript (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     item_id TEXT NOT NULL UNIQUE,
     turn INTEGER NOT NULL,
     item TEXT NOT NULL
   );
   CREATE TABLE IF NOT EXISTS turns (
     turn INTEGER PRIMARY KEY,
     record TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );`,
  // 2: structured transcript items (a tool call's name, call id and JSON arguments; results' error flag).
  upgradeTranscriptRows,
  // 3: the mailbox: follow-ups recorded on the objective (their items live in the transcript).
  `CREATE TABLE IF NOT EXISTS mailbox (
     k INTEGER PRIMARY KEY,
     item_id TEXT NOT NULL UNIQUE,
     client_key TEXT UNIQUE,
     digest TEXT NOT NULL,
     received_at INTEGER NOT NULL
   );`,
  // 4: checks before an action (push, report-ci, merge, apply-knowledge): the last 50, and how many older ones were dropped.
  `CREATE TABLE IF NOT EXISTS checks (
     id INTEGER PRIMARY KEY,
     action TEXT NOT NULL,
     verdict TEXT NOT NULL,
     checked_at INTEGER NOT NULL,
     record TEXT NOT NULL
   );`,
  // 5: the agent configuration the task was created with (JSON); NULL for tasks stored before it was kept.
  addAgentConfigColumn,
  // 6: what the model API reported for each turn's request (POST /tasks/:id/turns/:n/usage), at most one per turn.
  `CREATE TABLE IF NOT EXISTS usage (
     turn INTEGER PRIMARY KEY,
     record TEXT NOT NULL,
     received_at INTEGER NOT NULL
   );`,
  // 7: focus recorded after creation (`POST /tasks/:id/paths`): paths, skills and rules, in order, each once.
  `CREATE TABLE IF NOT EXISTS focus (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL CHECK (kind IN ('path', 'skill', 'rule')),
     value TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     UNIQUE (kind, value)
   );`,
];

/** Where every step above leads, for a new object in one go; test/tasks/task-schema.test.ts holds them equal. */
const FRESH = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE task (
     singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
     task_id TEXT NOT NULL,
     request TEXT NOT NULL,
     status TEXT NOT NULL,
     status_reason TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     commit_sha TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     agent_config TEXT
   );
   CREATE TABLE transcript (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT NOT NULL UNIQUE, turn INTEGER NOT NULL, item TEXT NOT NULL);
   CREATE TABLE turns (turn INTEGER PRIMARY KEY, record TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE TABLE mailbox (k INTEGER PRIMARY KEY, item_id TEXT NOT NULL UNIQUE, client_key TEXT UNIQUE, digest TEXT NOT NULL, received_at INTEGER NOT NULL);
   CREATE TABLE checks (id INTEGER PRIMARY KEY, action TEXT NOT NULL, verdict TEXT NOT NULL, checked_at INTEGER NOT NULL, record TEXT NOT NULL);
   CREATE TABLE usage (turn INTEGER PRIMARY KEY, record TEXT NOT NULL, received_at INTEGER NOT NULL);
   CREATE TABLE focus (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL CHECK (kind IN ('path', 'skill', 'rule')),
     value TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     UNIQUE (kind, value)
   );`;

export const SCHEMA_VERSION = MIGRATIONS.length;

/** `steps`: run every step even on a new object, as objects created before the fresh schema did (for tests). */
export function migrate(sql: SqlStorage, how: 'fresh-when-new' | 'steps' = 'fresh-when-new'): void {
  applyMigrations(sql, MIGRATIONS, how === 'steps' ? {} : { fresh: FRESH });
}

function upgradeTranscriptRows(sql: SqlStorage): void {
  const rows = sql.exec<{ seq: number; item: string }>('SELECT seq, item FROM transcript ORDER BY seq').toArray();
  const items = upgradeLegacyItems(rows.map((row) => JSON.parse(row.item)));
  rows.forEach((row, i) => sql.exec('UPDATE transcript SET item = ? WHERE seq = ?', JSON.stringify(items[i]), row.seq));
}

/** Idempotent like every step: an object that already has the column (a step run twice) keeps it. */
function addAgentConfigColumn(sql: SqlStorage): void {
  const columns = sql.exec<{ name: string }>('PRAGMA table_info(task)').toArray();
  if (!columns.some((column) => column.name === 'agent_config')) sql.exec('ALTER TABLE task ADD COLUMN agent_config TEXT');
}
