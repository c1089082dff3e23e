/**
 * @module durable-objects/knowledge-schema
 * Versioned, idempotent SQLite schema of a knowledge scope (one tenant, one repository). Every
 * version of every object is a row, kept for good; `superseded_by` links a version to the one
 * that replaced it, the current versions are the rows without it, and `lineage` (the first
 * version's id) groups an object's versions. The columns beside the
 * record are what lists filter and sort on.
 *
 * An object that was only ever asked about has no schema at all: reads of a scope nobody wrote
 * to, or of an id that names no scope, leave no storage behind.
 */

import { applyMigrations } from './sqlite-migrations.ts';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE IF NOT EXISTS knowledge (
     id TEXT PRIMARY KEY,
     record TEXT NOT NULL,
     status TEXT NOT NULL,
     review_by TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     lineage TEXT NOT NULL,
     superseded_by TEXT
   );
   CREATE INDEX IF NOT EXISTS knowledge_lineage ON knowledge (lineage, created_at);
   CREATE INDEX IF NOT EXISTS knowledge_current ON knowledge (created_at, id) WHERE superseded_by IS NULL;
   CREATE INDEX IF NOT EXISTS knowledge_due ON knowledge (review_by, id) WHERE superseded_by IS NULL AND status = 'active';`,
];


export function hasSchema(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
}

export function migrateKnowledge(sql: SqlStorage): void {
  applyMigrations(sql, MIGRATIONS);
}
