/**
 * @module sources/github/pull-request-reader
 * `GET /repos/{owner}/{repo}/pulls/{number}` as a PullRequestReader: one request, through the
 * same Octokit client (auth, retries, base URL) the task's repository reads use.
 */
import type { Octokit } from '@octokit/rest';
import { z } from 'zod';
import type { PullRequestRead, PullRequestReader } from '../pull-request.ts';
import { describeFailure, httpFailure, rethrowIfAborted } from './errors.ts';

const PullResponse = z.object({
  number: z.number().int().positive(),
  state: z.enum(['open', 'closed']),
  base: z.object({ ref: z.string().min(1) }),
  head: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/) }),
});

export interface PullRequestTarget {
  owner: string;
  repo: string;
  number: number;
}

/**
 * @example
 * const reader = createGitHubPullRequestReader(octokit, { owner: 'acme', repo: 'widgets', number: 7 });
 * const now = await reader.read({ signal });
 */
export function createGitHubPullRequestReader(octokit: Octokit, { owner, repo, number }: PullRequestTarget): PullRequestReader {
  return {
    number,
    async read({ signal } = {}): Promise<PullRequestRead> {
      try {
        const response = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
          owner,
          repo,
          pull_number: number,
          request: signal ? { signal } : {},
        });
        const parsed = PullResponse.safeParse(response.data);
        if (!parsed.success) return { status: 'failed', number, reason: `GitHub's answer for pull request #${number} of ${owner}/${repo} was not understood` };
        const { base, head, state } = parsed.data;
        return { status: 'ok', pullRequest: { number, baseRef: base.ref, headSha: head.sha, state } };
      } catch (error) {
        rethrowIfAborted(signal);
        if (httpFailure(error)?.status === 404) return { status: 'missing', number };
        return { status: 'failed', number, reason: describeFailure(error, `pull request #${number} of ${owner}/${repo}`) };
      }
    },
  };
}
