/**
 * @module durable-objects/task-index-sync
 * Keeps a task's row in its tenant's index (see task-index.ts) current, at least once. Every
 * report numbers itself from a counter in the task's own storage (bumped before the report is
 * sent, so a later state always carries a higher number) and sends the whole current state, so
 * any report that arrives makes the row right, and the index ignores one older than what it has.
 * A report that fails leaves the task `behind`; the object then tries again from its alarm.
 * Tasks stored before the index existed have never reported, so they are `behind` too.
 */
import type { TaskIndexRow } from '../src/tasks/task-index.ts';
import { requestExcerpt, requestPreview } from '../src/tasks/task-index.ts';
import { displayRepo } from '../src/tasks/task-request.ts';
import type { TaskRow } from './task-store.ts';

export interface TaskIndexWriter {
  record(row: TaskIndexRow): Promise<unknown>;
}

const SENT = 'index_seq';
const ACKNOWLEDGED = 'index_acked';

export class TaskIndexSync {
  readonly #sql: SqlStorage;
  readonly #writer: (tenant: string) => TaskIndexWriter;

  constructor(sql: SqlStorage, writer: (tenant: string) => TaskIndexWriter) {
    this.#sql = sql;
    this.#writer = writer;
  }

  /** Whether the index may not hold the latest state: never reported, a report owed, or one lost. */
  behind(): boolean {
    return indexBehind(this.#sql);
  }

  /**
   * The task's new state is owed to the index: numbered now, in the step that stores the state,
   * so the task is `behind` until a report of it is acknowledged, and an object restarted before
   * sending it sends it from its alarm.
   */
  owe(): void {
    this.#nextSeq();
  }

  /** Sends the task's current state; false when the index could not be reached. */
  async report(task: TaskRow): Promise<boolean> {
    const seq = this.#nextSeq();
    try {
      await this.#writer(task.request.tenant).record(indexRow(task, seq));
    } catch (error) {
      console.warn(`task ${task.task_id}: the tenant's task index was not updated (report ${seq}): ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    this.#acknowledge(seq);
    return true;
  }

  /** Bumps the counter and reads it back in one statement: a report runs once per status change. */
  #nextSeq(): number {
    const row = this.#sql
      .exec<{ value: string | number }>(
        "INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value",
        SENT,
      )
      .one();
    return Number(row.value);
  }

  /** Acknowledgements may land out of order; the stored one only moves up. */
  #acknowledge(seq: number): void {
    this.#sql.exec(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE CAST(meta.value AS INTEGER) < CAST(excluded.value AS INTEGER)',
      ACKNOWLEDGED,
      String(seq),
    );
  }
}

/** {@link TaskIndexSync.behind} of the task in this storage. */
export function indexBehind(sql: SqlStorage): boolean {
  const sent = readCount(sql, SENT);
  return sent === undefined || (readCount(sql, ACKNOWLEDGED) ?? -1) < sent;
}

function readCount(sql: SqlStorage, key: string): number | undefined {
  const row = sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0];
  return row ? Number(row.value) : undefined;
}

export function indexRow(task: TaskRow, seq: number): TaskIndexRow {
  return {
    taskId: task.task_id,
    tenant: task.request.tenant,
    seq,
    status: task.status,
    reason: task.status_reason,
    origin: task.request.origin,
    repo: displayRepo(task.request.repo),
    agent: task.request.agent,
    request: requestPreview(task.request.request),
    commit: task.commit_sha,
    createdAt: task.created_at,
    updatedAt: task.updated_at,
    expiresAt: task.expires_at,
    ...(task.request.pullRequest ? { pullRequest: task.request.pullRequest.number } : {}),
    requestExcerpt: requestExcerpt(task.request.request),
  };
}
