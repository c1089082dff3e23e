/**
 * @module test/support/github-api-checks
 * What the local GitHub API server says about commits and pull requests beyond their trees: the
 * check runs and commit statuses set on a commit, pull requests made or changed mid-test (closed,
 * merged, a draft, mergeable or not, reviewed), and their routes, `commits/{ref}/check-runs`,
 * `commits/{ref}/status` and `pulls/{n}/reviews`, paged as GitHub pages them (30 by default, at
 * most 100, `Link` to the next and last page). Held by the server, not by a scope: tests keep
 * apart by using commits and pull request numbers of their own.
 */
import * as z from 'zod';
import type { Answer } from './github-api-scope.ts';

export const CheckRunFixtureSchema = z.object({
  name: z.string(),
  status: z.string().default('completed'),
  conclusion: z.string().nullable().default(null),
  app: z.string().default('github-actions'),
});
export const CommitStatusFixtureSchema = z.object({
  context: z.string(),
  state: z.enum(['error', 'failure', 'pending', 'success']),
  description: z.string().nullable().default(null),
});
export const CommitChecksFixtureSchema = z.object({
  checkRuns: z.array(CheckRunFixtureSchema).default([]),
  statuses: z.array(CommitStatusFixtureSchema).default([]),
  /** The `total_count` GitHub gives, when it is not how many it lists (GitHub can count runs it does not list). */
  checkRunsTotal: z.number().int().nonnegative().optional(),
  statusesTotal: z.number().int().nonnegative().optional(),
});
export type CommitChecksFixture = z.input<typeof CommitChecksFixtureSchema>;

export const ReviewFixtureSchema = z.object({ login: z.string(), state: z.string(), commit: z.string().optional() });

/** What a test may change about a pull request after it was made. */
export const PullStateSchema = z.object({
  state: z.enum(['open', 'closed']).optional(),
  merged: z.boolean().optional(),
  draft: z.boolean().optional(),
  mergeable: z.boolean().nullable().optional(),
  mergeableState: z.string().optional(),
  reviews: z.array(ReviewFixtureSchema).optional(),
});
export type PullState = z.input<typeof PullStateSchema>;

const Side = z.object({ ref: z.string(), rev: z.string() });
export const NewPullSchema = PullStateSchema.extend({ base: Side, head: Side, title: z.string().optional() });
export type NewPull = z.input<typeof NewPullSchema>;

export interface CommitFixtures {
  /** Sets what `commits/{sha}/check-runs` and `commits/{sha}/status` answer for a commit. */
  setChecks(sha: string, checks: z.output<typeof CommitChecksFixtureSchema>): void;
  checkRuns(sha: string, query: URLSearchParams, self: URL): Answer;
  combinedStatus(sha: string, query: URLSearchParams, self: URL): Answer;
  reviews(reviews: ReadonlyArray<z.output<typeof ReviewFixtureSchema>>, query: URLSearchParams, self: URL): Answer;
}

export function commitFixtures(owner: string, repo: string): CommitFixtures {
  const byCommit = new Map<string, z.output<typeof CommitChecksFixtureSchema>>();
  let nextId = 7_000_000;
  return {
    setChecks: (sha, checks) => byCommit.set(sha, checks),
    checkRuns(sha, query, self) {
      const runs = (byCommit.get(sha)?.checkRuns ?? []).map((run) => ({
        id: nextId++,
        name: run.name,
        head_sha: sha,
        status: run.status,
        conclusion: run.status === 'completed' ? run.conclusion : null,
        html_url: `https://github.com/${owner}/${repo}/runs/${nextId}`,
        app: { slug: run.app, name: run.app },
      }));
      const { items, headers } = page(runs, query, self);
      return { status: 200, body: { total_count: byCommit.get(sha)?.checkRunsTotal ?? runs.length, check_runs: items }, headers };
    },
    combinedStatus(sha, query, self) {
      const statuses = (byCommit.get(sha)?.statuses ?? []).map((status, i) => ({
        id: 9_000_000 + i,
        context: status.context,
        state: status.state,
        description: status.description,
        target_url: `https://ci.example.com/${sha}/${i}`,
      }));
      const { items, headers } = page(statuses, query, self);
      // GitHub's combined state: failure beats pending beats success; none at all is pending.
      const state = statuses.some((s) => s.state === 'failure' || s.state === 'error') ? 'failure' : statuses.length === 0 || statuses.some((s) => s.state === 'pending') ? 'pending' : 'success';
      return { status: 200, body: { state, sha, total_count: byCommit.get(sha)?.statusesTotal ?? statuses.length, statuses: items }, headers };
    },
    reviews(reviews, query, self) {
      const all = reviews.map((review, i) => ({ id: 8_000_000 + i, user: { login: review.login, id: 1000 + i, type: 'User' }, state: review.state, commit_id: review.commit ?? null, body: '', author_association: 'MEMBER' }));
      const { items, headers } = page(all, query, self);
      return { status: 200, body: items, headers };
    },
  };
}

/** One page of `all` as GitHub pages lists: `per_page` (default 30, at most 100), `page`, and `Link`. */
function page<T>(all: T[], query: URLSearchParams, self: URL): { items: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(query.get('per_page') ?? 30) || 30));
  const number = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (n: number, rel: string) => {
    const url = new URL(self);
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(n));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links = number < last ? [link(number + 1, 'next'), link(last, 'last')] : [];
  return { items: all.slice((number - 1) * perPage, number * perPage), headers: links.length > 0 ? { link: links.join(', ') } : {} };
}
