/**
 * @module sources/pull-requests
 * What a host grants with `github:api`: reads about the task's own repository on GitHub that no
 * commit-pinned snapshot can answer, such as the files a pull request changes. The host binds it
 * to the task's repository and credential; a provider cannot point it anywhere else.
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
  | { status: 'failed'; reason: string };

export interface GitHubApi {
  /** The repository it is bound to, `owner/name`. */
  readonly repository: string;
  /** At most `limit` changed files of pull request `number`, in GitHub's order; pages only up to `limit`. */
  pullRequestFiles(number: number, options: { limit: number; signal?: AbortSignal }): Promise<PullRequestFilesResult>;
}
