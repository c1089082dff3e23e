/**
 * Webhook intake answers once the delivery is stored in its intake shard and the shard's alarm is
 * armed; the Task object, the tenant's index and the assembly come after the answer. These tests
 * kill the shard or the Task object right after the answer (workerd logs the abort as an uncaught
 * exception) and check that nothing accepted is lost.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { durablePullRequestIndex } from '../../src/tasks/durable-pull-request-index.ts';
import { listTenantTasks } from '../../src/tasks/durable-task-index.ts';
import { intakeStub } from '../../src/tasks/task-intake.ts';
import { handedOn, intakeRow } from '../support/intake.ts';
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
  it('answers once the delivery is in its intake shard; the task, its assembly and the index come after', async () => {
    const taskId = await accept(pullRequestEvent('reopened', { number: 9101 }));
    const row = await intakeRow(taskId);
    expect(row).toBeDefined();
    // Stored with what the task needs, or already handed on (the shard's alarm may have run).
    if (row?.due_at !== null) expect(row?.entry).toContain('"number":9101');
    expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready' });
    expect(await intakeRow(taskId)).toMatchObject({ entry: null, due_at: null });
    const { rows } = await listTenantTasks(env, [tenant], { limit: 50, now: Date.now() });
    expect(rows.map((row) => [row.taskId, row.status])).toContainEqual([taskId, 'ready']);
  });

  // Whatever the dying object held in memory (a create under way, an assembly, a pending report) is gone.
  it.each([
    { dies: 'the intake shard dies right after the answer: its alarm creates the task', number: 9104, object: (taskId: string) => intakeStub(env, taskId) },
    { dies: 'the Task object dies as it is created: the shard hands the delivery on again', number: 9102, object: (taskId: string) => taskStub(taskId) },
  ])('loses nothing when $dies, which assembles, and both indexes list it', async ({ number, object }) => {
    const payload = pullRequestEvent('reopened', { number });
    const taskId = await accept(payload);
    await runInDurableObject(object(taskId), (_, state) => state.abort('the isolate died after the answer')).catch(() => undefined);
    await handedOn(taskId);
    expect(await settledTask(taskId, tenant)).toMatchObject({ status: 'ready' });
    const { rows } = await listTenantTasks(env, [tenant], { limit: 50, now: Date.now() });
    expect(rows.map((row) => [row.taskId, row.status])).toContainEqual([taskId, 'ready']);
    // The pull request's index, which the accept path writes and the task's own entry repairs, names it as the latest.
    const pr = { installationId: fx.installationId, repo: payload.repository.full_name, number };
    expect(await durablePullRequestIndex(env).lookup(pr, 'a delivery not seen')).toMatchObject({ latest: taskId, routed: null });
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
    // The abort may also have cut the shard's hand-on short (it retries a second later); until it
    // hands on, the shard answers a redelivery itself, as pending. Once it has, the object answers.
    await handedOn(taskId);
    const third = await post(WEBHOOK_URL, init);
    expect(await third.json()).toMatchObject({ taskId, status: 'ready', duplicate: true });
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
