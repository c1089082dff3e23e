import { env } from 'cloudflare:workers';
import { listDurableObjectIds } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../src/triggers/slack/verify.ts';
import { readInstallation } from '../../src/triggers/github/installations.ts';
import { E2E_SLACK_SECRET, E2E_SLACK_WILDCARD_TEAM } from '../e2e/bindings.ts';
import { HOOKS_ORIGIN, routeSlackHooks } from '../e2e/slack-hooks.ts';
import { checkRunsOf, post, pullRequestOpened, settledTask, signedDelivery, SLACK_URL, WEBHOOK_URL } from '../e2e/support.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { example } from '../triggers/support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const taskIds = async () => (await listDurableObjectIds(env.TASKS)).map((id) => id.toString());

let stopRouting: () => void = () => {};
beforeAll(() => {
  stopRouting = routeSlackHooks();
});
afterAll(() => stopRouting());

/** A pull request event no other test sends: its own head commit makes its body unique. */
function uniquePullRequest(): ReturnType<typeof pullRequestOpened> {
  const payload = pullRequestOpened();
  payload.pull_request.updated_at = new Date().toISOString();
  payload.pull_request.title = `Replay target ${crypto.randomUUID()}`;
  return payload;
}

async function accept(init: RequestInit): Promise<{ taskId: string; status: string; duplicate: boolean }> {
  const response = await post(WEBHOOK_URL, init);
  expect(response.status).toBe(202);
  return response.json();
}

describe('a captured webhook body replayed with a new X-GitHub-Delivery', () => {
  it('maps to the task the first delivery created: no new Task object, no second assembly or check run', async () => {
    const payload = uniquePullRequest();
    const first = await accept(await signedDelivery(payload));
    expect(first.duplicate).toBe(false);
    // The first delivery's Task object exists by now or soon (its intake shard creates it).
    const before = new Set([...(await taskIds()), first.taskId]);
    const replays = await Promise.all(Array.from({ length: 5 }, async () => accept(await signedDelivery(payload, { delivery: crypto.randomUUID() }))));
    expect(replays.map((replay) => [replay.taskId, replay.duplicate])).toEqual(replays.map(() => [first.taskId, true]));
    expect(await settledTask(first.taskId, tenant)).toMatchObject({ status: 'ready', attempts: 1 });
    expect(new Set(await taskIds())).toEqual(before);
    expect(await checkRunsOf(first.taskId)).toHaveLength(1);
  });

  it('still answers a redelivery (same delivery id, same body) with the first task', async () => {
    const init = await signedDelivery(uniquePullRequest());
    const first = await accept(init);
    expect(await accept(init)).toEqual({ taskId: first.taskId, status: expect.any(String), duplicate: true });
    await settledTask(first.taskId, tenant);
  });

  it('starts a new task for a new signed body', async () => {
    const first = await accept(await signedDelivery(uniquePullRequest()));
    const other = await accept(await signedDelivery(uniquePullRequest(), { delivery: crypto.randomUUID() }));
    expect(other.taskId).not.toBe(first.taskId);
    expect(other.duplicate).toBe(false);
    await Promise.all([settledTask(first.taskId, tenant), settledTask(other.taskId, tenant)]);
  });

  it('maps a replayed pull request comment to its first task as well', async () => {
    const payload = example('issue_comment', 'created');
    const pr = pullRequestOpened();
    Object.assign(payload, { repository: pr.repository, installation: pr.installation });
    payload.issue.number = fx.pull.number;
    payload.issue.pull_request = { url: 'u', html_url: 'h', diff_url: 'd', patch_url: 'p', merged_at: null };
    payload.comment.body = `@groundwork explain the error handling ${crypto.randomUUID()}`;
    payload.comment.author_association = 'MEMBER';
    const first = await accept(await signedDelivery(payload, { event: 'issue_comment' }));
    const replay = await accept(await signedDelivery(payload, { event: 'issue_comment', delivery: crypto.randomUUID() }));
    expect(replay).toMatchObject({ taskId: first.taskId, duplicate: true });
    await settledTask(first.taskId, tenant);
  });
});

describe('a signed body replayed under another X-GitHub-Event', () => {
  it('cannot uninstall the App: an issue_comment "deleted" sent as an installation event is a 400 and changes nothing', async () => {
    const installation = example('installation', 'created');
    installation.installation.id = 880_001;
    Object.assign(installation.installation.account ?? {}, { login: 'replay-victim' });
    expect((await post(WEBHOOK_URL, await signedDelivery(installation, { event: 'installation' }))).status).toBe(200);
    const stored = await readInstallation(env.TENANTS, 880_001);
    expect(stored).toMatchObject({ installationId: 880_001, suspended: false });

    const comment = example('issue_comment', 'deleted');
    comment.installation = { id: 880_001, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uODgwMDAx' };
    for (const event of ['installation', 'installation_repositories']) {
      const res = await post(WEBHOOK_URL, await signedDelivery(comment, { event }));
      expect(res.status, event).toBe(400);
    }
    expect(await readInstallation(env.TENANTS, 880_001)).toEqual(stored);
    expect(await env.TENANTS.get('account:replay-victim')).toBe('880001');
  });
});

describe('a Slack command replayed inside its five signed minutes', () => {
  it('maps to the first task even without a trigger_id', async () => {
    const body = new URLSearchParams({
      team_id: E2E_SLACK_WILDCARD_TEAM,
      user_id: 'U2147483697',
      command: '/groundwork',
      text: `${fx.owner}/${fx.repo} explain the build ${crypto.randomUUID()}`,
      response_url: `${HOOKS_ORIGIN}/commands/${crypto.randomUUID()}`,
    }).toString();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const init = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Slack-Request-Timestamp': timestamp, 'X-Slack-Signature': await signSlackRequest(E2E_SLACK_SECRET, timestamp, body) }, body };
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await (await post(SLACK_URL, init)).json<{ text: string }>()).text);
    const id = /task `([0-9a-f]{64})`/.exec(texts[0] ?? '')?.[1] ?? '';
    expect(texts[0]).toContain('Assembling context');
    expect(texts.slice(1)).toEqual([1, 2].map(() => expect.stringContaining(`Already working on this command: task \`${id}\``)));
    await settledTask(id, `slack:${E2E_SLACK_WILDCARD_TEAM}`);
  });
});
