/**
 * @module notify/github-check
 * The `groundwork/context` check run on a pull request's head commit, created completed in one
 * request once assembly has ended. `external_id` carries the task id, so a check run can be
 * traced back to its task ledger.
 */
import type { Octokit } from '@octokit/core';
import type { CheckRunOutput } from './check-run-summary.ts';

export const CHECK_RUN_NAME = 'groundwork/context';

export interface CheckRunInput {
  owner: string;
  repo: string;
  headSha: string;
  taskId: string;
  conclusion: 'success' | 'failure';
  output: CheckRunOutput;
  completedAt: Date;
  /** The task's inspector page; GitHub shows it as the check's "View more details" link. */
  detailsUrl?: string;
  signal?: AbortSignal;
}

/**
 * @example
 * await createContextCheckRun(octokit, { owner, repo, headSha, taskId, conclusion: 'success', output: turnSummary(turn, taskId), completedAt: new Date() });
 */
export async function createContextCheckRun(octokit: Octokit, input: CheckRunInput): Promise<void> {
  await octokit.request('POST /repos/{owner}/{repo}/check-runs', {
    owner: input.owner,
    repo: input.repo,
    name: CHECK_RUN_NAME,
    head_sha: input.headSha,
    status: 'completed',
    conclusion: input.conclusion,
    completed_at: input.completedAt.toISOString(),
    external_id: input.taskId,
    ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
    output: input.output,
    ...(input.signal ? { request: { signal: input.signal } } : {}),
  });
}
