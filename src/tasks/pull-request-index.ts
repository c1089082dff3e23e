/**
 * @module tasks/pull-request-index
 * Which task a pull request's follow-ups belong to. Every task a pull request starts is recorded
 * in order, so its latest one can take a comment into its mailbox instead of a new task; and
 * every delivery is recorded with where it went, so a redelivered comment goes where the first
 * one went (and, being idempotent there, is not appended twice).
 *
 * The order is the order in which the pull request's deliveries reach its index, one at a time,
 * before each is answered: a review is recorded as soon as its task is stored (not when its intake
 * shard hands it on), and a task a comment starts takes the place its lookup had. So a comment
 * sent the moment a pull request opens joins the review whatever the hand-on's timing (issue 55).
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

export interface Lookup {
  /** The pull request's latest task. */
  latest: string | null;
  /** Where this delivery went, if it was seen before. */
  routed: Routed | null;
  /** This lookup's place in the pull request's order: a task the delivery goes on to start is recorded there. */
  place: number;
}

export interface PullRequestIndex {
  lookup(pr: PullRequestKey, delivery: string): Promise<Lookup>;
  /**
   * Records where a delivery went. A task seen for the first time joins the pull request's tasks
   * at `place` (a lookup's, or a task's creation time; default: now, after every place handed
   * out so far), and the latest is the one placed last, not the one recorded last: a review whose
   * record failed is recorded again from its task's first attempt (see
   * durable-objects/pull-request-entry), after newer tasks may have been. Answers the task placed
   * just before this delivery's task (null for a mailbox, or the pull request's first task).
   */
  record(pr: PullRequestKey, delivery: string, routed: Routed, place?: number): Promise<{ previous: string | null }>;
}

/** One object per pull request of an installation; repository names are case-insensitive on GitHub. */
export function pullRequestIndexName(pr: PullRequestKey): string {
  return `github:${pr.installationId}:${pr.repo.toLowerCase()}#${pr.number}`;
}
