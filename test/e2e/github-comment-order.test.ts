/**
 * One order per pull request, whatever the intake shards' timing (issue 55): the pull request's
 * index takes its deliveries one at a time before each is answered, and that order decides where
 * a comment goes. Every delivery here is stored in an intake shard whose alarm is taken away in
 * the same step (support/intake `heldIntake`), so the review is still in its shard, not in its
 * Task object, when the comment comes; the test hands deliveries on itself. Nothing waits on a
 * clock. Storage of its own (vitest.config.ts): it holds shards another file's delivery would re-arm.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { TaskStore } from '../../durable-objects/task-store.ts';
import { getAgents } from '../../src/env.ts';
import { durablePullRequestIndex } from '../../src/tasks/durable-pull-request-index.ts';
import { durableTaskService } from '../../src/tasks/durable-task-service.ts';
import { TaskDescriptionSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { signedDeliveryKey } from '../../src/triggers/github/dispatch.ts';
import { githubFixture, openPullRequest } from '../support/github-api-client.ts';
import { handOn, heldIntake, intakeRow } from '../support/intake.ts';
import { triggerApp } from '../triggers/support.ts';
import { pullRequestComment, pullRequestEvent, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const app = triggerApp(durableTaskService(env, getAgents(), heldIntake), { pullRequests: durablePullRequestIndex(env) });

/** A pull request of its own for each test (its index starts empty), with the fixture's diff. */
function newPullRequest(): Promise<number> {
  return openPullRequest({ base: { ref: fx.pull.baseRef, rev: fx.commits.first }, head: { ref: fx.pull.headRef, rev: fx.commits.head } });
}

async function deliver(payload: unknown, event: string) {
  const init = await signedDelivery(payload, { event });
  const response = await app.request(WEBHOOK_URL, init, env);
  const key = await signedDeliveryKey(event, new Uint8Array(await new Response(init.body).arrayBuffer()));
  return { status: response.status, body: await response.json<Record<string, unknown>>(), key };
}

/** Whether the Task object holds its task, read in the object without asking it (which would fetch it from its shard). */
const stored = (id: string) => runInDurableObject(taskStub(id), (_, state) => new TaskStore(state.storage.sql).task() !== undefined);
/** The task a delivery would have started: its object is named by the delivery's signed key. */
const taskOf = (key: string) => env.TASKS.idFromName(key).toString();
const describeTask = async (id: string) => TaskDescriptionSchema.parse(await taskStub(id).describe(tenant));

describe("a pull request's deliveries, in the order its index took them", () => {
  it("sends a comment made before the review was handed on to the review's mailbox, and the review assembles with it", async () => {
    const number = await newPullRequest();
    const opened = await deliver(pullRequestEvent('opened', { number }), 'pull_request');
    expect(opened).toMatchObject({ status: 202, body: { status: 'pending', duplicate: false } });
    const review = String(opened.body['taskId']);
    // Still in its intake shard: the Task object has nothing yet.
    expect((await intakeRow(review))?.due_at).not.toBeNull();
    expect(await stored(review)).toBe(false);

    const comment = await deliver(pullRequestComment('@groundwork please also check the error messages', number), 'issue_comment');
    expect(comment).toMatchObject({ status: 202, body: { taskId: review, mailboxItem: 'local:mailbox:1', duplicate: false } });
    // No second task: nothing was stored for the comment's own.
    expect(await intakeRow(taskOf(comment.key))).toBeUndefined();

    await handOn(review);
    expect((await intakeRow(review))?.due_at).toBeNull();
    expect(await settledTask(review, tenant)).toMatchObject({ status: 'ready', mailbox: { count: 1, lastItemId: 'local:mailbox:1' } });
    // It came before turn 0 was built: the next turn carries it, after the task item (durable-objects/mailbox).
    const turn = TurnResultSchema.parse(await taskStub(review).beginTurn(tenant, 1));
    if (turn.status !== 'ok') throw new Error(`turn 1: ${turn.status}`);
    expect(turn.turn.items.map((item) => item.id).slice(0, 2)).toEqual(['local:task', 'local:mailbox:1']);
    expect(await durablePullRequestIndex(env).lookup({ installationId: fx.installationId, repo: `${fx.owner}/${fx.repo}`, number }, 'a later comment')).toMatchObject({ latest: review });
  });

  it('leaves the head-moved note of a push in the previous review while both are still in their shards', async () => {
    const number = await newPullRequest();
    const opened = await deliver(pullRequestEvent('opened', { number }), 'pull_request');
    const pushed = await deliver(pullRequestEvent('synchronize', { number, headSha: fx.commits.first }), 'pull_request');
    const [first, next] = [String(opened.body['taskId']), String(pushed.body['taskId'])];
    expect(next).not.toBe(first);
    expect((await intakeRow(next))?.due_at).not.toBeNull();
    // The note made the first review take its delivery from its shard, and is in its mailbox.
    expect((await describeTask(first)).mailbox).toMatchObject({ count: 1 });

    const comment = await deliver(pullRequestComment('@groundwork and the new commit?', number), 'issue_comment');
    expect(comment.body).toMatchObject({ taskId: next, mailboxItem: 'local:mailbox:1' });
    await handOn(first);
    await handOn(next);
    expect(await settledTask(next, tenant)).toMatchObject({ mailbox: { count: 1 } });
    expect((await settledTask(first, tenant)).mailbox.count).toBe(1);
  });

  it('starts a task for a comment that reached the index before any review, and sends the next comment to the review that came after', async () => {
    const number = await newPullRequest();
    const early = await deliver(pullRequestComment('@groundwork what does this pull request change?', number), 'issue_comment');
    expect(early).toMatchObject({ status: 202, body: { status: 'pending', duplicate: false } });
    const own = String(early.body['taskId']);
    expect(early.body).not.toHaveProperty('mailboxItem');

    const opened = await deliver(pullRequestEvent('opened', { number }), 'pull_request');
    const review = String(opened.body['taskId']);
    const later = await deliver(pullRequestComment('@groundwork and the tests?', number), 'issue_comment');
    expect(later.body).toMatchObject({ taskId: review, mailboxItem: 'local:mailbox:1' });

    await handOn(own);
    await handOn(review);
    expect((await settledTask(own, tenant)).mailbox.count).toBe(0);
    expect((await settledTask(review, tenant)).mailbox.count).toBe(1);
  });
});
