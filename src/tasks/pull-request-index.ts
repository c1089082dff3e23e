/**
 * @module tasks/pull-request-index
 * Which task a pull request's follow-ups belong to. Every task a pull request starts is recorded
 * in order, so its latest one can take a comment into its mailbox instead of a new task; and
 * every delivery is recorded with where it went, so a redelivered comment goes where the first
 * one went (and, being idempotent there, is not appended twice).
 *
 * Kept in a Durable Object per pull request, not in KV: the decision "the latest task is T" and
 * "this delivery went to T" must be read back exactly by the next delivery, which may arrive a
 * second later at another location, and KV would serve a stale answer there for up to a minute.
 */

export interface PullRequestKey {
  installationId: number;
  /** `owner/name`, as the webhook names it. */
  repo: string;
  number: number;
}

/** Where a delivery went: a task it started (or found), or the mailbox of an existing one. */
export interface Routed {
  kind: 'task' | 'mailbox';
  taskId: string;
}

export interface PullRequestIndex {
  /** The pull request's latest task, and where this delivery went if it was seen before. */
  lookup(pr: PullRequestKey, delivery: string): Promise<{ latest: string | null; routed: Routed | null }>;
  /**
   * Records where a delivery went. A task seen for the first time joins the pull request's tasks
   * at `createdAt` (default: now), and the latest is the one created last, not the one recorded
   * last: a review task records itself from its first attempt (see durable-objects/pull-request-entry),
   * so a retried record may arrive after a newer task's.
   */
  record(pr: PullRequestKey, delivery: string, routed: Routed, createdAt?: number): Promise<void>;
}

/** One object per pull request of an installation; repository names are case-insensitive on GitHub. */
export function pullRequestIndexName(pr: PullRequestKey): string {
  return `github:${pr.installationId}:${pr.repo.toLowerCase()}#${pr.number}`;
}
