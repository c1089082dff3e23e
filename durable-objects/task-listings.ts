/**
 * @module durable-objects/task-listings
 * Where a task is listed, kept current from the task's own storage: its row in its tenant's
 * index (task-index-sync, at least once per state) and, for a review task, its entry in its pull
 * request's index (pull-request-entry, once). Both are made after the answer that created the
 * task; a listing that fails leaves the task `behind`, and the object's alarm tries again.
 */
import { withDeadline } from '../src/lib/deadline.ts';
import type { PullRequestIndex } from '../src/tasks/pull-request-index.ts';
import { entryPending, PullRequestEntry, type PendingEntry } from './pull-request-entry.ts';
import { indexBehind, TaskIndexSync, type TaskIndexWriter } from './task-index-sync.ts';
import type { TaskRow } from './task-store.ts';

/**
 * How long a report to the index objects may take. An index object that does not answer (a
 * request to another object has no deadline of its own) must not hold what waits on the report: a
 * task's create, its attempt's outcome, its alarm. Past it the report counts as failed and is sent
 * again from the alarm, as a refused one is; a late answer still acknowledges what it recorded.
 */
export const INDEX_REPORT_MS = 10_000;

export class TaskListings {
  readonly #tenant: TaskIndexSync;
  readonly #pullRequest: PullRequestEntry;

  constructor(sql: SqlStorage, indexes: { tenant: (tenant: string) => TaskIndexWriter; pullRequest: () => PullRequestIndex }) {
    this.#tenant = new TaskIndexSync(sql, indexes.tenant);
    this.#pullRequest = new PullRequestEntry(sql, indexes.pullRequest);
  }

  /** Keeps the pull request entry a new review task owes; synchronous, so it commits with the task. */
  owePullRequestEntry(entry: PendingEntry): void {
    this.#pullRequest.hold(entry);
  }

  /** Whether a listing may be missing or old: an owed or lost tenant report, or an owed pull request entry. */
  behind(): boolean {
    return this.#tenant.behind() || this.#pullRequest.pending();
  }

  /** The task's new state is owed to its tenant's index; synchronous, so it commits with the state. */
  owe(): void {
    this.#tenant.owe();
  }

  /** Sends the task's current state to its tenant's index and makes any owed entry; false when either failed or did not answer within INDEX_REPORT_MS. */
  async report(task: TaskRow): Promise<boolean> {
    const describe = () => `task ${task.task_id}: the index objects did not answer its report within ${INDEX_REPORT_MS / 1000} s; it is sent again later`;
    try {
      const [indexed, listed] = await withDeadline(INDEX_REPORT_MS, describe, () => Promise.all([this.#tenant.report(task), this.#pullRequest.record(task)]));
      return indexed && listed;
    } catch (error) {
      console.warn(error instanceof Error ? error.message : String(error));
      return false;
    }
  }
}

/** {@link TaskListings.behind} of the task in this storage. */
export function listingsBehind(sql: SqlStorage): boolean {
  return indexBehind(sql) || entryPending(sql);
}
