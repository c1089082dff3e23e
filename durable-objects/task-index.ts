/**
 * @module durable-objects/task-index
 * One SQLite Durable Object per tenant: the list of that tenant's tasks, newest first, for
 * `GET /tasks` and `GET /view`. Each Task object reports itself here when it is created and on
 * every status change, with a sequence number; a report with a lower number than the one stored
 * (a retry that arrived late) changes nothing, so reports may repeat and arrive in any order.
 * Rows of expired tasks are never listed, and are deleted by the first write after each
 * `PURGE_EVERY_MS`: a burst of reports then pays for one purge, not one each.
 */
import { DurableObject } from 'cloudflare:workers';
import { repoKey, TaskIndexRowSchema, type EarlierTasksQuery, type TaskIndexQuery, type TaskIndexRow } from '../src/tasks/task-index.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS tasks (
    task_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    origin TEXT NOT NULL,
    repo_key TEXT NOT NULL,
    row TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS tasks_newest ON tasks (created_at DESC, task_id DESC);`;

export type RecordResult = 'stored' | 'stale';

/**
 * How often a write also deletes expired rows. Deleting on every write was 7% of a webhook
 * burst's time (bench/intake-profile), an index on the expiry did not change that, and an
 * expired row no one can list does no harm for an hour.
 */
export const PURGE_EVERY_MS = 3_600_000;

export class TaskIndex extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  /** When this instance last deleted expired rows; a new instance purges on its first write. */
  #purgedAt = -Infinity;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    void ctx.blockConcurrencyWhile(async () => this.#sql.exec(SCHEMA));
  }

  /** Stores the row unless a report with a higher `seq` is already here. */
  async record(input: TaskIndexRow): Promise<RecordResult> {
    const row = TaskIndexRowSchema.parse(input);
    const now = Date.now();
    if (now - this.#purgedAt >= PURGE_EVERY_MS) {
      this.#sql.exec('DELETE FROM tasks WHERE expires_at <= ?', now);
      this.#purgedAt = now;
    }
    const stored = this.#sql.exec(
      `INSERT INTO tasks (task_id, seq, created_at, expires_at, status, origin, repo_key, row) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (task_id) DO UPDATE SET seq = excluded.seq, expires_at = excluded.expires_at, status = excluded.status,
         origin = excluded.origin, repo_key = excluded.repo_key, row = excluded.row
       WHERE excluded.seq > tasks.seq
       RETURNING task_id`,
      row.taskId,
      row.seq,
      row.createdAt,
      row.expiresAt,
      row.status,
      row.origin,
      repoKey(row.repo),
      JSON.stringify(row),
    );
    return stored.toArray().length > 0 ? 'stored' : 'stale';
  }

  /** Up to `limit` rows after the cursor, newest first, matching every filter given. */
  async list(query: TaskIndexQuery): Promise<TaskIndexRow[]> {
    const where = ['expires_at > ?'];
    const params: Array<string | number> = [query.now];
    if (query.after) {
      where.push('(created_at < ? OR (created_at = ? AND task_id < ?))');
      params.push(query.after.createdAt, query.after.createdAt, query.after.taskId);
    }
    const filters: Array<[string, string | undefined]> = [
      ['status = ?', query.status],
      ['origin = ?', query.origin],
      ['repo_key = ?', query.repo === undefined ? undefined : repoKey(query.repo)],
    ];
    for (const [clause, value] of filters) {
      if (value === undefined) continue;
      where.push(clause);
      params.push(value);
    }
    return this.#sql
      .exec<{ row: string }>(`SELECT row FROM tasks WHERE ${where.join(' AND ')} ORDER BY created_at DESC, task_id DESC LIMIT ?`, ...params, query.limit)
      .toArray()
      .map((stored) => TaskIndexRowSchema.parse(JSON.parse(stored.row)));
  }

  /**
   * Up to `limit` tasks on one repository created before `before` (and not it), newest first,
   * those about `pullRequest` ahead of the rest: what a task's history provider shows.
   */
  async earlier(query: EarlierTasksQuery): Promise<TaskIndexRow[]> {
    const { before } = query;
    // A row without a pull request (or of another) ranks 0; COALESCE keeps NULL from sorting apart.
    const samePullRequest = query.pullRequest === undefined ? '' : "COALESCE(json_extract(row, '$.pullRequest') = ?, 0) DESC, ";
    const rankParams = query.pullRequest === undefined ? [] : [query.pullRequest];
    return this.#sql
      .exec<{ row: string }>(
        `SELECT row FROM tasks
         WHERE expires_at > ? AND repo_key = ? AND task_id != ? AND (created_at < ? OR (created_at = ? AND task_id < ?))
         ORDER BY ${samePullRequest}created_at DESC, task_id DESC LIMIT ?`,
        query.now,
        repoKey(query.repo),
        before.taskId,
        before.createdAt,
        before.createdAt,
        before.taskId,
        ...rankParams,
        query.limit,
      )
      .toArray()
      .map((stored) => TaskIndexRowSchema.parse(JSON.parse(stored.row)));
  }
}
