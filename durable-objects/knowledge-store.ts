/**
 * @module durable-objects/knowledge-store
 * Typed access to one knowledge scope's SQLite rows. Parameterised SQL only; every record is
 * parsed with zod on the way out. Lists are keyset-paginated on a unique order, so a page never
 * repeats or skips a row that stays in the list while a client pages through it.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { KnowledgeSchema, type Knowledge } from '../src/context/knowledge.ts';
import type { KnowledgeScopeName, ListFilter, PageKey } from '../src/knowledge/results.ts';

export interface StoredVersion {
  knowledge: Knowledge;
  supersededBy: string | null;
}

const Row = lazySchema(() => z.object({ record: z.string(), superseded_by: z.string().nullable() }));

const parseRecord = (text: string): Knowledge => KnowledgeSchema.parse(JSON.parse(text));

export class KnowledgeStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  scope(): KnowledgeScopeName | undefined {
    const rows = this.#sql.exec<{ key: string; value: string }>("SELECT key, value FROM meta WHERE key IN ('tenant', 'repository')").toArray();
    const tenant = rows.find((row) => row.key === 'tenant')?.value;
    const repository = rows.find((row) => row.key === 'repository')?.value;
    return tenant !== undefined && repository !== undefined ? { tenant, repository } : undefined;
  }

  claimScope(scope: KnowledgeScopeName): void {
    this.#sql.exec("INSERT INTO meta (key, value) VALUES ('tenant', ?), ('repository', ?) ON CONFLICT(key) DO NOTHING", scope.tenant, scope.repository);
  }

  /** Counts writes, so a reader that keeps parsed rows knows when they are stale. */
  generation(): number {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'generation'").toArray()[0];
    return row ? Number(row.value) : 0;
  }

  /** `lineage` is the id of the object's first version. */
  insert(knowledge: Knowledge, createdAtMs: number, lineage: string): void {
    this.#wrote();
    this.#sql.exec(
      'INSERT INTO knowledge (id, record, status, review_by, created_at, lineage) VALUES (?, ?, ?, ?, ?, ?)',
      knowledge.id,
      JSON.stringify(knowledge),
      knowledge.status,
      knowledge.reviewBy,
      createdAtMs,
      lineage,
    );
  }

  lineageOf(id: string): string | undefined {
    return this.#sql.exec<{ lineage: string }>('SELECT lineage FROM knowledge WHERE id = ?', id).toArray()[0]?.lineage;
  }

  /** Every version of the object `id` belongs to, oldest first. */
  versions(lineage: string): Knowledge[] {
    return this.#records('SELECT record FROM knowledge WHERE lineage = ? ORDER BY created_at, id', lineage);
  }

  supersede(id: string, by: string): void {
    this.#wrote();
    this.#sql.exec('UPDATE knowledge SET superseded_by = ? WHERE id = ?', by, id);
  }

  #wrote(): void {
    this.#sql.exec("INSERT INTO meta (key, value) VALUES ('generation', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1");
  }

  version(id: string): StoredVersion | undefined {
    const row = this.#sql.exec('SELECT record, superseded_by FROM knowledge WHERE id = ?', id).toArray()[0];
    if (!row) return undefined;
    const parsed = Row.parse(row);
    return { knowledge: parseRecord(parsed.record), supersededBy: parsed.superseded_by };
  }

  latestCreatedAt(): number {
    return this.#sql.exec<{ latest: number }>('SELECT COALESCE(MAX(created_at), 0) AS latest FROM knowledge').one().latest;
  }

  countActive(): number {
    return this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM knowledge WHERE superseded_by IS NULL AND status = 'active'").one().n;
  }

  /** Every active current version, newest first. */
  active(): Knowledge[] {
    return this.#records("SELECT record FROM knowledge WHERE superseded_by IS NULL AND status = 'active' ORDER BY created_at DESC, id DESC");
  }

  /**
   * One page of current versions. `due` lists active ones reviewed on or before `dueBy`, soonest
   * first; the others list newest first. Returns one row more than `limit` when there is more.
   */
  page(filter: ListFilter, after: PageKey | undefined, limit: number): Array<{ knowledge: Knowledge; key: PageKey }> {
    const rows =
      filter.status === 'due'
        ? this.#sql
            .exec<{ record: string; key: string }>(
              `SELECT record, review_by AS key FROM knowledge
               WHERE superseded_by IS NULL AND status = 'active' AND review_by <= ?
                 AND (? IS NULL OR review_by > ? OR (review_by = ? AND id > ?))
               ORDER BY review_by, id LIMIT ?`,
              filter.dueBy,
              after?.sort ?? null,
              after?.sort ?? null,
              after?.sort ?? null,
              after?.id ?? null,
              limit + 1,
            )
            .toArray()
        : this.#sql
            .exec<{ record: string; key: number }>(
              `SELECT record, created_at AS key FROM knowledge
               WHERE superseded_by IS NULL AND (? IS NULL OR status = ?)
                 AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
               ORDER BY created_at DESC, id DESC LIMIT ?`,
              filter.status === 'all' ? null : filter.status,
              filter.status === 'all' ? null : filter.status,
              after?.sort ?? null,
              after?.sort ?? null,
              after?.sort ?? null,
              after?.id ?? null,
              limit + 1,
            )
            .toArray();
    return rows.map((row) => {
      const knowledge = parseRecord(row.record);
      return { knowledge, key: { sort: row.key, id: knowledge.id } };
    });
  }

  #records(query: string, ...bindings: SqlStorageValue[]): Knowledge[] {
    return this.#sql
      .exec<{ record: string }>(query, ...bindings)
      .toArray()
      .map((row) => parseRecord(row.record));
  }
}
