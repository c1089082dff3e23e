/**
 * @module sources/pull-request
 * What a task's pull request looks like now, as its host can ask GitHub. A task pins the base
 * commit and records the head when it starts; a freshness check asks again, to tell whether the
 * base was retargeted or new commits were pushed since. Like the repository sources, failures
 * are values and only the caller's AbortSignal throws.
 */

export interface PullRequestState {
  number: number;
  /** The branch the pull request merges into now (it can be retargeted). */
  baseRef: string;
  /** The head commit now. */
  headSha: string;
  /** `closed` covers merged pull requests as well. */
  state: 'open' | 'closed';
}

export type PullRequestRead =
  | { status: 'ok'; pullRequest: PullRequestState }
  | { status: 'missing'; number: number }
  | { status: 'failed'; number: number; reason: string };

/** Reads one pull request, the one the task is about, with the host's credentials. */
export interface PullRequestReader {
  readonly number: number;
  read(options?: { signal?: AbortSignal }): Promise<PullRequestRead>;
}
