/**
 * @module test/e2e/support-checks
 * Pull request tasks of a test's own, for the checks before an action: two branches of the
 * served repository (a base made from `main`, a head made from the base), a pull request between
 * them on the local GitHub API server, and the task its `opened` delivery starts. Asking a check
 * goes through the real Worker as the granted API tenant (`acme` may read the installation's
 * tasks), the way a host would ask.
 */
import { expect } from 'vitest';
import { CheckRecordSchema, type CheckRecord } from '../../src/checks/result.ts';
import { api } from '../support/api.ts';
import { githubFixture, openPullRequest, pushToBranch } from '../support/github-api-client.ts';
import { post, pullRequestEvent, settledTask, signedDelivery, WEBHOOK_URL } from './support.ts';

export interface PullRequestTask {
  taskId: string;
  number: number;
  baseRef: string;
  headRef: string;
  /** The base the task is pinned at, and the head it was given. */
  base: string;
  head: string;
}

export const installationTenant = () => `github:${githubFixture().installationId}`;

export async function pullRequestTask(): Promise<PullRequestTask> {
  const tag = crypto.randomUUID().slice(0, 8);
  const baseRef = `ck-${tag}-base`;
  const headRef = `ck-${tag}-head`;
  const base = await pushToBranch(baseRef, { 'NOTES.md': `base ${tag}\n` }, { from: 'main' });
  const head = await pushToBranch(headRef, { 'src/feature.ts': `export const tag = '${tag}';\n` }, { from: baseRef });
  // Revisions are the branch names, so the pull request follows pushes to them.
  const number = await openPullRequest({ base: { ref: baseRef, rev: baseRef }, head: { ref: headRef, rev: headRef } });
  const opened = pullRequestEvent('opened', { number, baseRef, baseSha: base, headRef, headSha: head });
  const accepted = await post(WEBHOOK_URL, await signedDelivery(opened, { event: 'pull_request' }));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  expect(await settledTask(taskId, installationTenant())).toMatchObject({ status: 'ready', commit: base });
  return { taskId, number, baseRef, headRef, base, head };
}

/** `POST /tasks/:id/checks` as the granted tenant; the answer parsed as a check record. */
export async function check(taskId: string, body: Record<string, unknown>): Promise<CheckRecord> {
  const res = await api('POST', `/tasks/${taskId}/checks`, { body });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return CheckRecordSchema.parse(res.json);
}
