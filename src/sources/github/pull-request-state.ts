/**
 * @module sources/github/pull-request-state
 * `GET /repos/{owner}/{repo}/pulls/{number}` as a PullRequestRead: where a pull request's base and
 * head are now, whether it is open, merged or a draft, and whether GitHub would merge it, in one
 * request. Failures are values; only the caller's abort throws.
 */
import type { Octokit } from '@octokit/core';
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import type { PullRequestRead } from '../pull-requests.ts';
import { describeFailure, httpFailure, rethrowIfAborted } from './errors.ts';

const PullResponse = lazySchema(() => z.object({
  number: z.number().int().positive(),
  state: z.enum(['open', 'closed']),
  base: z.object({ ref: z.string().min(1) }),
  head: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/), ref: z.string().default('') }),
  merged: z.boolean().default(false),
  draft: z.boolean().default(false),
  mergeable: z.boolean().nullable().default(null),
  mergeable_state: z.string().max(64).nullable().default(null),
}));

export interface PullRequestTarget {
  owner: string;
  repo: string;
  number: number;
}

export async function readPullRequest(octokit: Octokit, { owner, repo, number }: PullRequestTarget, signal?: AbortSignal): Promise<PullRequestRead> {
  try {
    const response = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner, repo, pull_number: number, request: signal ? { signal } : {} });
    const parsed = PullResponse.safeParse(response.data);
    if (!parsed.success) return { status: 'failed', number, reason: `GitHub's answer for pull request #${number} of ${owner}/${repo} was not understood` };
    const { base, head, state, merged, draft, mergeable } = parsed.data;
    const pullRequest = { number, baseRef: base.ref, headSha: head.sha, state, headRef: head.ref, merged, draft, mergeable, mergeableState: parsed.data.mergeable_state };
    return { status: 'ok', pullRequest };
  } catch (error) {
    rethrowIfAborted(signal);
    if (httpFailure(error)?.status === 404) return { status: 'missing', number };
    return { status: 'failed', number, reason: describeFailure(error, `pull request #${number} of ${owner}/${repo}`) };
  }
}
