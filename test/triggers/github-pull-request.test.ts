import { sha256Hex } from '../../src/lib/sha256.ts';
import { describe, expect, it } from 'vitest';
import { deliver, deliveryInit, example, fakeTaskService, testEnv, triggerApp, WEBHOOK_URL } from './support.ts';

const INSTALLATION = { id: 4242, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==' };
const BASE_SHA = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
const HEAD_SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

function pullRequest(action: string) {
  const payload = example('pull_request', action);
  payload.installation = INSTALLATION;
  return payload;
}


describe('pull_request', () => {
  it('creates a reviewer task pinned at the base commit with the head as evidence', async () => {
    const { status, body, tasks } = await deliver(pullRequest('opened'), 'pull_request');
    expect(status).toBe(202);
    const [task] = tasks.created();
    expect(body).toEqual({ taskId: tasks.calls[0]?.id, status: 'pending', duplicate: false });
    expect(task).toEqual({
      origin: 'github',
      tenant: 'github:4242',
      githubInstallationId: 4242,
      repo: 'Codertocat/Hello-World',
      baseCommit: BASE_SHA,
      cwd: '',
      paths: [],
      // The description is the author's text: evidence in pullRequest, not part of the request.
      request: 'Review pull request #2 "Update the README with new information." (changes into master) in Codertocat/Hello-World.',
      agent: 'reviewer',
      trusted: true,
      skills: [],
      pullRequest: { number: 2, url: 'https://github.com/Codertocat/Hello-World/pull/2', title: 'Update the README with new information.', body: 'This is a pretty simple change that we need to pull into master.', author: 'Codertocat', labels: [], draft: false, baseRef: 'master', headRef: 'changes', headSha: HEAD_SHA, fromFork: false, additions: 1, deletions: 1, changedFiles: 1 },
      notify: { kind: 'github-check', installationId: 4242, owner: 'Codertocat', repo: 'Hello-World', headSha: HEAD_SHA },
      // Links posted when assembly ends are built on the origin the delivery reached.
      publicUrl: 'http://groundwork.test',
    });
  });

  it.each(['reopened', 'ready_for_review', 'synchronize'])('reviews on %s', async (action) => {
    const { status, tasks } = await deliver(pullRequest(action), 'pull_request');
    expect(status).toBe(202);
    expect(tasks.created()).toHaveLength(1);
  });

  it('reviews the new head after a push (synchronize)', async () => {
    const payload = pullRequest('synchronize');
    payload.pull_request.head.sha = '1'.repeat(40);
    const { tasks } = await deliver(payload, 'pull_request');
    expect(tasks.created()[0]).toMatchObject({ baseCommit: BASE_SHA, pullRequest: { headSha: '1'.repeat(40) }, notify: { headSha: '1'.repeat(40) } });
  });

  it('ignores a draft until it is marked ready for review', async () => {
    const draft = pullRequest('opened');
    draft.pull_request.draft = true;
    const ignored = await deliver(draft, 'pull_request');
    expect(ignored.status).toBe(200);
    expect(ignored.body).toEqual({ ignored: 'pull request #2 is a draft; review starts when it is ready for review' });
    expect(ignored.tasks.calls).toEqual([]);

    const pushed = pullRequest('synchronize');
    pushed.pull_request.draft = true;
    expect((await deliver(pushed, 'pull_request')).tasks.calls).toEqual([]);

    const ready = await deliver(pullRequest('ready_for_review'), 'pull_request');
    expect(ready.status).toBe(202);
    expect(ready.tasks.created()).toHaveLength(1);
  });

  it('flags a pull request from a fork and still reads rules at the base commit', async () => {
    const payload = pullRequest('opened');
    const head = payload.pull_request.head;
    head.repo = { ...payload.pull_request.base.repo, id: 99, full_name: 'mallory/Hello-World' };
    const { tasks } = await deliver(payload, 'pull_request');
    expect(tasks.created()[0]).toMatchObject({ baseCommit: BASE_SHA, trusted: true, pullRequest: { fromFork: true, headSha: HEAD_SHA } });
  });

  it('keeps an over-long description, title and label list as bounded evidence instead of refusing the delivery', async () => {
    const payload = pullRequest('opened');
    const pr = payload.pull_request;
    pr.body = `Context.\n${'x'.repeat(20_000)}`;
    pr.title = 't'.repeat(2_000);
    pr.labels = Array.from({ length: 150 }, (_, i) => ({ ...pr.labels[0], id: i, node_id: `L${i}`, url: '', name: `label-${i}-${'z'.repeat(200)}`, color: 'fff', default: false, description: null }));
    Object.assign(pr, { user: null });
    const { status, tasks } = await deliver(payload, 'pull_request');
    expect(status).toBe(202);
    const evidence = tasks.created()[0]?.pullRequest;
    expect(evidence?.body).toHaveLength(8_000);
    expect(evidence?.title).toHaveLength(1_024);
    expect(evidence?.labels).toHaveLength(100);
    expect(evidence?.labels?.every((label) => label.length === 100)).toBe(true);
    expect(evidence).not.toHaveProperty('author');
    expect(tasks.created()[0]?.request).not.toContain('x'.repeat(100));
  });

  it('treats a head whose fork was deleted as a fork', async () => {
    const payload = pullRequest('opened');
    Object.assign(payload.pull_request.head, { repo: null });
    const { tasks } = await deliver(payload, 'pull_request');
    expect(tasks.created()[0]?.pullRequest?.fromFork).toBe(true);
  });

  it.each(['closed', 'labeled', 'converted_to_draft'])('ignores %s', async (action) => {
    const { status, body, tasks } = await deliver(pullRequest(action), 'pull_request');
    expect(status).toBe(200);
    expect(body).toEqual({ ignored: `pull_request action "${action}" starts no review` });
    expect(tasks.calls).toEqual([]);
  });

  it('ignores a delivery that did not come through an App installation', async () => {
    const { body, tasks } = await deliver(example('pull_request', 'opened'), 'pull_request');
    expect(body).toEqual({ ignored: 'delivery is not from a GitHub App installation' });
    expect(tasks.calls).toEqual([]);
  });

  it('returns the same task for a redelivery and schedules nothing new', async () => {
    const tasks = fakeTaskService();
    const app = triggerApp(tasks);
    const init = await deliveryInit(pullRequest('opened'), { delivery: '72d3162e-cc78-11e3-81ab-4c9367dc0958' });
    const first = await (await app.request(WEBHOOK_URL, init, testEnv())).json<{ taskId: string; status: string }>();
    const again = await app.request(WEBHOOK_URL, init, testEnv());
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ ...first, duplicate: true });
    expect(tasks.created()).toHaveLength(1);
    const key = `github-event:pull_request:${await sha256Hex(String(init.body))}`;
    expect(tasks.calls.map((call) => call.idempotencyKey)).toEqual([key, key]);
  });
});

describe('other events', () => {
  it('acknowledges a ping without doing anything', async () => {
    const { status, body, tasks } = await deliver(example('ping'), 'ping');
    expect(status).toBe(200);
    expect(body).toEqual({ ignored: 'event "ping" is not handled' });
    expect(tasks.calls).toEqual([]);
  });
});
