/**
 * @module triggers/github/pull-request
 * What a task needs to know about a pull request, from a webhook payload or, when the payload
 * lacks it (issue comments carry no base or head commit), from one GitHub API call.
 */
import type { Config } from '../../env.ts';
import { ApiError } from '../../http/errors.ts';
import { PULL_REQUEST_LIMITS, type PullRequestEvidence } from '../../tasks/task-request.ts';
import { describeFailure } from '../../sources/github/errors.ts';
import type { Fetch } from '../../sources/github/retry.ts';
import type { KeyValueStore } from '../../sources/key-value-store.ts';
import { PullRequestSchema } from './events.ts';
import type { PullRequest } from './events.ts';

export interface PullRequestFacts {
  number: number;
  url: string;
  title: string;
  body: string;
  draft: boolean;
  baseSha: string;
  baseRef: string;
  headSha: string;
  headRef: string;
  /** Head from another repository, or from a fork since deleted. */
  fromFork: boolean;
  /** The author's login; absent when GitHub sent no user. */
  author?: string;
  labels: string[];
  additions?: number;
  deletions?: number;
  changedFiles?: number;
}

export function pullRequestFacts(pr: PullRequest): PullRequestFacts {
  return {
    number: pr.number,
    url: pr.html_url,
    title: pr.title,
    body: pr.body ?? '',
    draft: pr.draft,
    ...(pr.user ? { author: pr.user.login } : {}),
    labels: pr.labels.map((label) => label.name),
    ...(pr.additions === undefined ? {} : { additions: pr.additions }),
    ...(pr.deletions === undefined ? {} : { deletions: pr.deletions }),
    ...(pr.changed_files === undefined ? {} : { changedFiles: pr.changed_files }),
    baseSha: pr.base.sha,
    baseRef: pr.base.ref,
    headSha: pr.head.sha,
    headRef: pr.head.ref,
    // Compared by id: a renamed repository keeps its id, and a deleted fork has no repo at all.
    fromFork: pr.head.repo === null || pr.head.repo.id !== pr.base.repo.id,
  };
}

/**
 * What a task keeps about its pull request, cut to the task request's bounds (so no payload is
 * refused for a long description): the evidence the task-facts provider renders.
 */
export function pullRequestEvidence(pr: PullRequestFacts): PullRequestEvidence {
  const { maxTitle, maxBody, maxLabels, maxLabel, maxRef } = PULL_REQUEST_LIMITS;
  const body = pr.body.trim().slice(0, maxBody);
  return {
    number: pr.number,
    url: pr.url,
    title: pr.title.slice(0, maxTitle),
    ...(body === '' ? {} : { body }),
    ...(pr.author === undefined ? {} : { author: pr.author.slice(0, maxRef) }),
    labels: pr.labels.slice(0, maxLabels).map((label) => label.slice(0, maxLabel)),
    draft: pr.draft,
    baseRef: pr.baseRef.slice(0, maxRef),
    headRef: pr.headRef.slice(0, maxRef),
    headSha: pr.headSha,
    fromFork: pr.fromFork,
    ...(pr.additions === undefined ? {} : { additions: pr.additions }),
    ...(pr.deletions === undefined ? {} : { deletions: pr.deletions }),
    ...(pr.changedFiles === undefined ? {} : { changedFiles: pr.changedFiles }),
  };
}

export interface PullRequestRef {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
}

export type PullRequestLookup = (ref: PullRequestRef) => Promise<PullRequestFacts>;

/** GitHub gives a webhook 10 s and Slack a command 3 s; the lookup must fit inside both. */
const LOOKUP_TIMEOUT_MS = 2_500;

/**
 * `GET /repos/{owner}/{repo}/pulls/{number}` as the installation. Failures throw `ApiError`:
 * `not_configured` without App credentials, `upstream` when GitHub does not answer usefully.
 */
export function createPullRequestLookup(config: Config, fetch?: Fetch, tokens?: KeyValueStore): PullRequestLookup {
  return async ({ installationId, owner, repo, number }) => {
    // Only a comment on a pull request looks one up: a pull_request delivery carries the pull
    // request and never loads the GitHub client (issue 28).
    const { installationClient } = await import('../../tasks/github-app-code.ts');
    const octokit = installationClient(config, installationId, {
      ...(fetch === undefined ? {} : { fetch }),
      ...(tokens === undefined ? {} : { tokens }),
      retry: { retries: 1, baseDelayMs: 200, maxDelayMs: 500 },
    });
    if (!octokit) throw new ApiError('not_configured', 'GitHub App credentials are not configured');
    const subject = `pull request #${number} of ${owner}/${repo}`;
    let data: unknown;
    try {
      const response = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
        owner,
        repo,
        pull_number: number,
        request: { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) },
      });
      data = response.data;
    } catch (error) {
      console.warn(`pull request lookup failed: ${describeFailure(error, subject)}`);
      throw new ApiError('upstream', `GitHub did not answer for ${subject}`);
    }
    const parsed = PullRequestSchema.safeParse(data);
    if (!parsed.success) throw new ApiError('upstream', `GitHub's answer for ${subject} was not understood`);
    return pullRequestFacts(parsed.data);
  };
}
