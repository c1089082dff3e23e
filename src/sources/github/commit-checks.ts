/**
 * @module sources/github/commit-checks
 * The CommitChecksApi over the REST API, through the task's client (retries, deadline, meter):
 * `GET /repos/{o}/{r}/commits/{sha}/check-runs?filter=latest`, `GET …/commits/{sha}/status`
 * (the combined status: the latest of each context) and `GET …/pulls/{n}/reviews`, each paged up
 * to the caller's limit. Always by commit id, never by branch name: a branch can move between
 * the question and the answer.
 */
import type { Octokit } from '@octokit/core';
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { plainText } from '../../lib/plain-text.ts';
import type { CheckRun, CommitChecksApi, CommitStatus, Listing, PullRequestReview } from '../commit-checks.ts';
import { COMMIT_SHA } from '../snapshot.ts';
import { describeFailure, rethrowIfAborted } from './errors.ts';
import { readPages, type Page } from './pages.ts';

/** Bounds of the text kept from other people's check runs, statuses and reviews. */
const MAX_NAME = 200;
const MAX_DESCRIPTION = 300;
const MAX_URL = 2_048;

const Url = lazySchema(() => z.string().max(MAX_URL).nullish());
const CheckRunsResponse = lazySchema(() => z.object({
  total_count: z.number().int().nonnegative(),
  check_runs: z.array(
    z.object({
      name: z.string(),
      status: z.string().max(32),
      conclusion: z.string().max(32).nullable(),
      html_url: Url,
      app: z.object({ slug: z.string().nullish() }).nullish(),
    }),
  ),
}));
const CombinedStatusResponse = lazySchema(() => z.object({
  total_count: z.number().int().nonnegative(),
  statuses: z.array(
    z.object({
      context: z.string(),
      state: z.enum(['error', 'failure', 'pending', 'success']),
      description: z.string().nullish(),
      target_url: Url,
    }),
  ),
}));
const ReviewsResponse = lazySchema(() => z.array(
  z.object({
    user: z.object({ login: z.string() }).nullable(),
    state: z.string().max(32),
    commit_id: z.string().nullish(),
  }),
));

export interface CommitChecksTarget {
  owner: string;
  repo: string;
}

export function createCommitChecks(octokit: Octokit, { owner, repo }: CommitChecksTarget): CommitChecksApi {
  const request = (signal: AbortSignal | undefined) => (signal ? { signal } : {});
  const bySha = (commit: string): string | undefined => (COMMIT_SHA.test(commit) ? undefined : `not a commit id: ${JSON.stringify(commit.slice(0, 64))}`);

  return {
    async checkRuns(commit, { limit, signal }) {
      const refused = bySha(commit);
      if (refused) return { status: 'failed', reason: refused };
      return list(`the check runs of ${commit} in ${owner}/${repo}`, signal, limit, async (page, perPage): Promise<Page<CheckRun>> => {
        const response = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { owner, repo, ref: commit, filter: 'latest', per_page: perPage, page, request: request(signal) });
        const body = CheckRunsResponse.parse(response.data);
        const items = body.check_runs.map((run): CheckRun => {
          const app = run.app?.slug ? plainText(run.app.slug, MAX_NAME) : undefined;
          return { name: plainText(run.name, MAX_NAME), status: run.status, conclusion: run.conclusion, ...(app ? { app } : {}), ...(run.html_url ? { url: run.html_url } : {}) };
        });
        return { items, link: response.headers.link, total: body.total_count };
      });
    },

    async commitStatuses(commit, { limit, signal }) {
      const refused = bySha(commit);
      if (refused) return { status: 'failed', reason: refused };
      return list(`the commit statuses of ${commit} in ${owner}/${repo}`, signal, limit, async (page, perPage): Promise<Page<CommitStatus>> => {
        const response = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/status', { owner, repo, ref: commit, per_page: perPage, page, request: request(signal) });
        const body = CombinedStatusResponse.parse(response.data);
        const items = body.statuses.map((status): CommitStatus => {
          const description = status.description ? plainText(status.description, MAX_DESCRIPTION) : '';
          return { context: plainText(status.context, MAX_NAME), state: status.state, ...(description ? { description } : {}), ...(status.target_url ? { url: status.target_url } : {}) };
        });
        return { items, link: response.headers.link, total: body.total_count };
      });
    },

    async pullRequestReviews(number, { limit, signal }) {
      return list(`the reviews of pull request #${number} of ${owner}/${repo}`, signal, limit, async (page, perPage): Promise<Page<PullRequestReview>> => {
        const response = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { owner, repo, pull_number: number, per_page: perPage, page, request: request(signal) });
        const items = ReviewsResponse.parse(response.data).map(
          (review): PullRequestReview => ({
            login: review.user ? plainText(review.user.login, MAX_NAME) : '(deleted user)',
            state: review.state,
            commit: review.commit_id && COMMIT_SHA.test(review.commit_id) ? review.commit_id : null,
          }),
        );
        return { items, link: response.headers.link };
      });
    },
  };
}

async function list<T>(subject: string, signal: AbortSignal | undefined, limit: number, fetchPage: (page: number, perPage: number) => Promise<Page<T>>): Promise<Listing<T>> {
  try {
    const { items, complete, total } = await readPages(fetchPage, limit);
    return { status: 'ok', items, complete, ...(total !== undefined ? { total } : {}) };
  } catch (error) {
    rethrowIfAborted(signal);
    if (error instanceof z.ZodError) return { status: 'failed', reason: `GitHub's answer for ${subject} was not understood` };
    return { status: 'failed', reason: describeFailure(error, subject) };
  }
}
