/**
 * @module durable-objects/task-listings
 * Where a task is listed, kept current from the task's own storage: its row in its tenant's
 * index (task-index-sync, at least once per state) and, for a review task, its entry in its pull
 * request's index (pull-request-entry, once). Both are made after the answer that created the
 * task; a listing that fails leaves the task `behind`, and the object's alarm tries again.
 */
import type { PullRequestIndex } from '../src/tasks/pull-request-index.ts';
import { PullRequestEntry, type PendingEntry } from './pull-request-entry.ts';
import { TaskIndexSync, type TaskIndexWriter } from './task-index-sync.ts';
import type { TaskRow } from './task-store.ts';

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

  /** Whether a listing may be missing or old: a lost tenant report, or an owed pull request entry. */
  behind(): boolean {
    return this.#tenant.behind() || this.#pullRequest.pending();
  }

  /** Sends the task's current state to its tenant's index and makes any owed entry; false when either failed. */
  async report(task: TaskRow): Promise<boolean> {
    const [indexed, listed] = await Promise.all([this.#tenant.report(task), this.#pullRequest.record(task)]);
    return indexed && listed;
  }
}
