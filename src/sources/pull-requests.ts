/**
 * @module sources/pull-requests
 * What a host grants with `github:api`: reads about the task's own repository on GitHub that no
 * commit-pinned snapshot can answer, such as the files a pull request changes, or where its head
 * and base are now. The host binds it to the task's repository and credential; a provider cannot
 * point it anywhere else.
 *
 * Failures are values. The answer describes the pull request as it is when asked, not at a
 * commit: whoever renders it must call it volatile.
 */

/** One changed file, as GitHub lists it for a pull request. */
export interface PullRequestFile {
  path: string;
  /** GitHub's word for it: `added`, `removed`, `modified`, `renamed`, `copied`, `changed`, `unchanged`. */
  status: string;
  additions: number;
  deletions: number;
  /** The path before a rename or copy. */
  previousPath?: string;
}

export type PullRequestFilesResult =
  /** `complete` is false when the listing stopped at `limit` with more files left. */
  | { status: 'ok'; files: PullRequestFile[]; complete: boolean }
  /**
   * `credentials`: the App could not act as the installation at all (a key GitHub rejects, an
   * installation it does not know), so nothing else the task reads from GitHub can work either.
   */
  | { status: 'failed'; reason: string; credentials?: true };

/** A pull request as GitHub shows it now. A task pins its base commit and records its head when it starts. */
export interface PullRequestState {
  number: number;
  /** The branch the pull request merges into now (it can be retargeted). */
  baseRef: string;
  /** The head commit now. */
  headSha: string;
  /** `closed` covers merged pull requests as well (see `merged`). */
  state: 'open' | 'closed';
  /** The branch its head is on (in the fork, for a pull request from a fork). */
  headRef: string;
  merged: boolean;
  draft: boolean;
  /** Whether it merges without conflicts; null while GitHub is still computing it. */
  mergeable: boolean | null;
  /**
   * GitHub's word for whether it may be merged now: `clean`, `blocked` (required reviews or
   * checks), `behind`, `dirty` (conflicts), `unstable` (failing checks that are not required),
   * `has_hooks`, `draft`, `unknown`; null when GitHub sent none.
   */
  mergeableState: string | null;
}

export type PullRequestRead =
  | { status: 'ok'; pullRequest: PullRequestState }
  | { status: 'missing'; number: number }
  | { status: 'failed'; number: number; reason: string };

export interface GitHubApi {
  /** The repository it is bound to, `owner/name`. */
  readonly repository: string;
  /** At most `limit` changed files of pull request `number`, in GitHub's order; pages only up to `limit`. */
  pullRequestFiles(number: number, options: { limit: number; signal?: AbortSignal }): Promise<PullRequestFilesResult>;
  /** Pull request `number` as it is now: one request. */
  pullRequest(number: number, options?: { signal?: AbortSignal }): Promise<PullRequestRead>;
}
