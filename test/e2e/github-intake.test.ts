/**
 * Webhook intake answers once the delivery is stored and its Task object's alarm is armed; the
 * tenant's index and the assembly come after the answer, from that alarm. These tests kill the
 * Task object right after the answer (workerd logs the abort as an uncaught exception) and check
 * that nothing accepted is lost.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { durablePullRequestIndex } from '../../src/tasks/durable-pull-request-index.ts';
import { listTenantTasks } from '../../src/tasks/durable-task-index.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { post, pullRequestEvent, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;

async function accept(payload: unknown): Promise<string> {
  const accepted = await post(WEBHOOK_URL, await signedDelivery(payload));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  return taskId;
}

describe('webhook intake', () => {
  it('answers before the index hears of the task, which it does once assembly begins', async () => {
    const taskId = await accept(pullRequestEvent('reopened', { number: 9101 }));
    const stored = await runInDurableObject(taskStub(taskId), (_, state) => {
      const meta = state.storage.sql.exec<{ key: string }>('SELECT key FROM meta').toArray().map((row) => row.key);
      const task = state.storage.sql.exec<{ status: string }>('SELECT status FROM task').toArray()[0];
      return { meta, status: task?.status };
    });
    expect(stored.status).toBeDefined();
    // Still pending means the alarm has not begun assembly, and nothing was reported yet.
    if (stored.status === 'pending') expect(stored.meta).not.toContain('index_seq');
    expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready' });
    const { rows } = await listTenantTasks(env, [tenant], { limit: 50, now: Date.now() });
    expect(rows.map((row) => [row.taskId, row.status])).toContainEqual([taskId, 'ready']);
  });

  it("loses nothing when the Task object dies right after the answer: the alarm assembles it and both indexes list it", async () => {
    const payload = pullRequestEvent('reopened', { number: 9102 });
    const taskId = await accept(payload);
    // Whatever the object held in memory (an assembly under way, a pending report) dies here.
    await runInDurableObject(taskStub(taskId), (_, state) => state.abort('the isolate died after the answer')).catch(() => undefined);
    expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready' });
    const { rows } = await listTenantTasks(env, [tenant], { limit: 50, now: Date.now() });
    expect(rows.map((row) => [row.taskId, row.status])).toContainEqual([taskId, 'ready']);
    // The pull request's index, which the accept path no longer writes, names it as the latest.
    const pr = { installationId: fx.installationId, repo: payload.repository.full_name, number: 9102 };
    expect(await durablePullRequestIndex(env).lookup(pr, 'a delivery not seen')).toEqual({ latest: taskId, routed: null });
  });

  it('answers a redelivery as a duplicate of the stored task, also after the object died', async () => {
    const payload = pullRequestEvent('reopened', { number: 9103 });
    const init = await signedDelivery(payload);
    const first = await post(WEBHOOK_URL, init);
    const { taskId } = await first.json<{ taskId: string }>();
    await runInDurableObject(taskStub(taskId), (_, state) => state.abort('the isolate died after the answer')).catch(() => undefined);
    const again = await post(WEBHOOK_URL, init);
    expect(again.status).toBe(202);
    expect(await again.json()).toMatchObject({ taskId, duplicate: true });
    // The abort may have cut an attempt short (then the alarm makes another): count what the
    // redelivery itself adds once the task has settled, which must be nothing.
    const settled = await settledTask(taskId, tenant);
    expect(settled).toMatchObject({ status: 'ready' });
    const third = await post(WEBHOOK_URL, init);
    expect(await third.json()).toMatchObject({ taskId, duplicate: true });
    expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready', attempts: settled.attempts });
  });
});

describe('a delivery whose installation GitHub does not know', () => {
  afterEach(() => vi.restoreAllMocks());

  it('fails its task after one attempt, naming the installation, instead of retrying what cannot succeed', async () => {
    // The check-run notification meets the same refusal, and logs it.
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const payload = pullRequestEvent('reopened', { number: 9201 });
    payload.installation = { id: 999, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uOTk5' };
    const taskId = await accept(payload);
    const task = await settledTask(taskId, 'github:999');
    expect(task).toMatchObject({ status: 'failed', attempts: 1 });
    expect(task.reason).toContain('GitHub App installation 999 not found (404)');
    // It stopped at the first GitHub step, the pull request's files, not at the reads after it.
    expect(task.reason).toMatch(/^could not list the files of pull request #9201 of [^:]+: GitHub App installation 999 not found \(404\)/);
    // The check run was refused from the isolate's memory of GitHub's answer, without asking again
    // (the object notifies before it stores the final status, so the log is already written).
    expect(errors.mock.calls.map(([message]) => String(message)).find((message) => message.includes(taskId))).toMatch(/installation 999 not found \(404\).*GitHub's answer \d+ s ago/);
  });
});
