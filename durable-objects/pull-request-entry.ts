/**
 * @module durable-objects/pull-request-entry
 * A review task's entry in its pull request's index (src/tasks/pull-request-index), made again by
 * the task itself once the webhook has been answered. The trigger records the review there before
 * it answers (triggers/github/follow-ups); when that record failed, this one repairs it. The
 * delivery's accept path stores the task and the entry it owes in one step; the first attempt
 * makes the entry, beside the tenant's index report. The entry stays in the task's own storage
 * until the pull request's object has it, so an isolate that dies in between loses nothing: the
 * next report (the attempt's end, then the alarm) makes it again. An entry the trigger made
 * already moves nothing, and a late one is placed at the task's creation, so it does not become
 * the latest over a newer review.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import type { PullRequestIndex } from '../src/tasks/pull-request-index.ts';
import type { TaskRow } from './task-store.ts';

const KEY = 'pull_request_entry';

export const PendingEntrySchema = lazySchema(() => z.strictObject({
  pullRequest: z.strictObject({ installationId: z.number().int().positive(), repo: z.string().min(1), number: z.number().int().positive() }),
  /** The delivery's signed key: the entry records where that delivery went. */
  delivery: z.string().min(1),
}));
export type PendingEntry = z.infer<typeof PendingEntrySchema>;

export class PullRequestEntry {
  readonly #sql: SqlStorage;
  readonly #index: () => PullRequestIndex;

  constructor(sql: SqlStorage, index: () => PullRequestIndex) {
    this.#sql = sql;
    this.#index = index;
  }

  /** Keeps the entry to make; synchronous, so it commits with the task it is stored beside. */
  hold(entry: PendingEntry): void {
    this.#sql.exec('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING', KEY, JSON.stringify(entry));
  }

  /** Whether an entry is still owed. */
  pending(): boolean {
    return entryPending(this.#sql);
  }

  /** Makes the owed entry, if any; false when the pull request's object could not be reached (it stays owed). */
  async record(task: TaskRow): Promise<boolean> {
    const entry = this.#read();
    if (!entry) return true;
    try {
      await this.#index().record(entry.pullRequest, entry.delivery, { kind: 'task', taskId: task.task_id }, task.created_at);
    } catch (error) {
      console.warn(`task ${task.task_id}: pull request #${entry.pullRequest.number} of ${entry.pullRequest.repo} does not list it yet: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    this.#sql.exec('DELETE FROM meta WHERE key = ?', KEY);
    return true;
  }

  #read(): PendingEntry | undefined {
    const row = this.#sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', KEY).toArray()[0];
    return row ? PendingEntrySchema.parse(JSON.parse(row.value)) : undefined;
  }
}

/** {@link PullRequestEntry.pending} of the task in this storage. */
export function entryPending(sql: SqlStorage): boolean {
  return sql.exec('SELECT 1 FROM meta WHERE key = ?', KEY).toArray().length > 0;
}
