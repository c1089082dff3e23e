/**
 * @module sources/commit-checks
 * What GitHub says about a commit and a pull request beyond its tree: the check runs and commit
 * statuses attached to exactly one commit, and a pull request's reviews. The host binds it to the
 * task's repository and credential, as it does the `github:api` reads; the read-back before an
 * action (`src/checks/`) is its only reader.
 *
 * Every list is bounded by the caller's `limit` and pages only as far as it needs; `complete` is
 * false when GitHub had more. Failures are values; only the caller's abort throws. Names and
 * descriptions are other people's text: cut to a bound and stripped of control characters.
 */

/** A check run as GitHub lists it for a commit (the latest run of each name). */
export interface CheckRun {
  name: string;
  /** `queued`, `in_progress`, `completed`, `waiting`, `requested` or `pending`. */
  status: string;
  /** Set once `completed`: `success`, `failure`, `neutral`, `cancelled`, `skipped`, `timed_out`, `action_required`, `stale`, `startup_failure`. */
  conclusion: string | null;
  /** The App that reported it (its slug), when GitHub named one. */
  app?: string;
  url?: string;
}

/** The latest commit status of one context, as GitHub's combined status lists it. */
export interface CommitStatus {
  context: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  description?: string;
  url?: string;
}

/** A submitted review of a pull request. */
export interface PullRequestReview {
  login: string;
  /** `APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`, `DISMISSED` or `PENDING`. */
  state: string;
  /** The head it reviewed. */
  commit: string | null;
}

export type Listing<T> =
  /**
   * `complete` is false when GitHub listed more than `limit`, or said there are more than it
   * listed; `total` is how many it said there are (`total_count`), when the endpoint says.
   */
  | { status: 'ok'; items: T[]; complete: boolean; total?: number }
  | { status: 'failed'; reason: string };

export interface ListOptions {
  limit: number;
  signal?: AbortSignal;
}

export interface CommitChecksApi {
  /** Check runs on exactly `commit` (a 40-hex id), the latest of each name. */
  checkRuns(commit: string, options: ListOptions): Promise<Listing<CheckRun>>;
  /** Commit statuses on exactly `commit`, the latest of each context. */
  commitStatuses(commit: string, options: ListOptions): Promise<Listing<CommitStatus>>;
  /** Reviews of pull request `number`, oldest first. */
  pullRequestReviews(number: number, options: ListOptions): Promise<Listing<PullRequestReview>>;
}
