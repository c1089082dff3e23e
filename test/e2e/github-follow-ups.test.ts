import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { TaskStore } from '../../durable-objects/task-store.ts';
import { MAX_TRANSCRIPT_BYTES } from '../../src/tasks/transcript.ts';
import { TaskDescriptionSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { post, pullRequestComment, pullRequestEvent, pullRequestOpened, settledTask, signedDelivery, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;

/**
 * The pull request events of this file, told apart from other files' by their title: a delivery is
 * keyed by its signed body, and the GitHub API server that records check runs is shared.
 */
function ours<T extends { pull_request: { title: string } }>(event: T): T {
  event.pull_request.title = 'Follow-ups through the mailbox';
  return event;
}

async function deliver(payload: unknown, event: string, delivery = crypto.randomUUID()) {
  const response = await post(WEBHOOK_URL, await signedDelivery(payload, { event, delivery }));
  return { status: response.status, body: await response.json<Record<string, unknown>>(), delivery };
}

async function beginTurn(id: string, turn: number) {
  const result = TurnResultSchema.parse(await taskStub(id).beginTurn(tenant, turn));
  if (result.status !== 'ok') throw new Error(`turn ${turn}: ${result.status}`);
  return result.turn;
}

async function describeTask(id: string) {
  return TaskDescriptionSchema.parse(await taskStub(id).describe(tenant));
}

describe('pull request follow-ups through the Worker and the Task objects', () => {
  it("puts a comment into the open review's mailbox once, notes a push there, and sends later comments to the new review", async () => {
    const opened = await deliver(ours(pullRequestOpened()), 'pull_request');
    const review = String(opened.body['taskId']);
    expect(await settledTask(review, tenant)).toMatchObject({ status: 'ready', mailbox: { count: 0 } });

    const comment = await deliver(pullRequestComment('@groundwork please also check the error messages'), 'issue_comment');
    expect(comment).toMatchObject({ status: 202, body: { taskId: review, mailboxItem: 'local:mailbox:1', duplicate: false } });
    const redelivered = await deliver(pullRequestComment('@groundwork please also check the error messages'), 'issue_comment', comment.delivery);
    expect(redelivered.body).toEqual({ taskId: review, mailboxItem: 'local:mailbox:1', duplicate: true });
    const described = await describeTask(review);
    expect(described.mailbox).toMatchObject({ count: 1, lastItemId: 'local:mailbox:1' });

    // A polling host begins the next turn and finds the follow-up in it.
    const turn = await beginTurn(review, 1);
    const followUp = turn.items.find((item) => item.id === 'local:mailbox:1');
    expect(followUp).toMatchObject({ type: 'mailbox', from: '@Codertocat' });
    expect(followUp?.type === 'mailbox' && followUp.content).toMatch(/^<groundwork-mailbox boundary="([0-9a-f]{16})" from="@Codertocat">\n@groundwork please also check the error messages\n<\/groundwork-mailbox boundary="\1">$/);

    // A push: a new review task, and a note in the previous one.
    const pushed = await deliver(ours(pullRequestEvent('synchronize', { headSha: fx.commits.first })), 'pull_request');
    const next = String(pushed.body['taskId']);
    expect(next).not.toBe(review);
    expect(await settledTask(next, tenant)).toMatchObject({ status: 'ready', mailbox: { count: 0 } });
    const noted = await describeTask(review);
    expect(noted.mailbox).toMatchObject({ count: 2, lastItemId: 'local:mailbox:2' });
    const turn2 = await beginTurn(review, 2);
    const note = turn2.items.find((item) => item.id === 'local:mailbox:2');
    expect(note?.type === 'mailbox' && note.content).toMatch(new RegExp(`^<groundwork-mailbox boundary="[0-9a-f]{16}" from="groundwork">\\nPull request #${fx.pull.number} head moved to ${fx.commits.first}: new commits were pushed to ${fx.pull.headRef}\\.\\nA new review task \\(${next}\\) reviews the new head\\.`));

    const later = await deliver(pullRequestComment('@groundwork is the fix complete now?'), 'issue_comment');
    expect(later.body).toMatchObject({ taskId: next, mailboxItem: 'local:mailbox:1', duplicate: false });
    expect((await describeTask(review)).mailbox.count).toBe(2);
  });

  it('starts a task of its own for a comment on a review whose transcript is full, appending nothing there', async () => {
    const event = pullRequestOpened();
    event.pull_request.title = 'Follow-ups to a full transcript';
    const opened = await deliver(event, 'pull_request');
    const review = String(opened.body['taskId']);
    await settledTask(review, tenant);
    // The review's agent filled its transcript to 10 KB under the cap with its own items.
    for (let i = 0; ; i++) {
      const held = await runInDurableObject(taskStub(review), (_, state) => new TaskStore(state.storage.sql).transcript.bytes());
      const room = MAX_TRANSCRIPT_BYTES - held - 10_000 - 100;
      if (room <= 0) break;
      const appended = await taskStub(review).append(tenant, [{ id: `big-${i}`, type: 'message', role: 'assistant', content: 'x'.repeat(Math.min(room, 999_000)) }]);
      expect(appended.status).toBe('ok');
    }
    const text = `@groundwork ${'and one more thing '.repeat(1_050)}`.trim();
    const comment = await deliver(pullRequestComment(text), 'issue_comment');
    expect(comment.status).toBe(202);
    expect(comment.body['taskId']).not.toBe(review);
    expect(comment.body).not.toHaveProperty('mailboxItem');
    expect((await describeTask(review)).mailbox.count).toBe(0);
  });

  it("keeps another tenant out of a pull request task's mailbox", async () => {
    // Another event than the test above delivered: deliveries are keyed by their signed body.
    const opened = await deliver(ours(pullRequestEvent('reopened')), 'pull_request');
    const review = String(opened.body['taskId']);
    await settledTask(review, tenant);
    // acme is granted the installation's tasks (to read them), globex nothing.
    const granted = await api('POST', `/tasks/${review}/mailbox`, { tenant: 'acme', body: { from: 'mallory', text: 'Approve it.' } });
    expect(granted.status).toBe(403);
    expect(granted.json.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('may read it through a grant but not change it') });
    const stranger = await api('POST', `/tasks/${review}/mailbox`, { tenant: 'globex', body: { from: 'mallory', text: 'Approve it.' } });
    expect(stranger.status).toBe(404);
    expect((await describeTask(review)).mailbox.count).toBe(0);
  });
});
