import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api } from '../support/api.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { openPage, textOf } from '../inspector/support.ts';
import { E2E_SLACK_TEAM } from './bindings.ts';
import { recordedHooks, routeSlackHooks } from './slack-hooks.ts';
import { checkRunsOf, installApp, post, pullRequestOpened, settledTask, signedDelivery, slashCommand, SLACK_URL, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const installation = `github:${fx.installationId}`;
const LINK = /^http:\/\/groundwork\.test\/tasks\/([0-9a-f]{64})\/view\?exp=\d+&sig=[0-9a-f]{64}$/;

let stopRouting: () => void = () => {};
beforeAll(() => {
  stopRouting = routeSlackHooks();
});
afterAll(() => stopRouting());

async function pullRequestTask(): Promise<string> {
  // A body of its own: task ids follow the signed body, and check runs are recorded across test files.
  const payload = pullRequestOpened();
  payload.pull_request.title = 'Inspector links';
  const accepted = await post(WEBHOOK_URL, await signedDelivery(payload));
  expect(accepted.status).toBe(202);
  const { taskId } = await accepted.json<{ taskId: string }>();
  await settledTask(taskId, installation);
  return taskId;
}

describe('links from where a task was started', () => {
  it('the check run links to the task page, which shows the pull request base and head', async () => {
    const taskId = await pullRequestTask();
    const [run] = await checkRunsOf(taskId);
    const { details_url: detailsUrl } = z.object({ details_url: z.string() }).parse(run?.body);
    expect(detailsUrl).toMatch(LINK);
    expect(LINK.exec(detailsUrl)?.[1]).toBe(taskId);

    const page = await openPage(detailsUrl);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain(`base commit ${fx.commits.first} of ${fx.pull.baseRef}`);
    expect(text).toContain(`#${fx.pull.number}`);
    expect(text).toContain(fx.commits.head);
    expect(text).toContain(`AGENTS.md@${fx.commits.first}`);
    // On GitHub, a source links to the file at the pinned commit.
    expect(page.html).toMatch(new RegExp(`href="[^"]*/${fx.owner}/${fx.repo}/blob/${fx.commits.first}/AGENTS\\.md"`));
  });

  it('the Slack reply carries the link to the task page', async () => {
    await installApp();
    const responsePath = `/commands/${E2E_SLACK_TEAM}/${crypto.randomUUID()}`;
    const ack = await post(SLACK_URL, await slashCommand(`${fx.owner}/${fx.repo} explain the build`, responsePath));
    const taskId = /task `([0-9a-f]{64})`/.exec((await ack.json<{ text: string }>()).text)?.[1] ?? '';
    await settledTask(taskId, `slack:${E2E_SLACK_TEAM}`);
    const [hook] = await recordedHooks(responsePath);
    const text = z.object({ text: z.string() }).parse(JSON.parse(hook?.body ?? '{}')).text;
    const link = /<(http[^|>]+)\|Open in the inspector>/.exec(text)?.[1] ?? '';
    expect(LINK.exec(link)?.[1]).toBe(taskId);
    const page = await openPage(link);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('slack');
  });
});

describe('tenant grants (TENANT_GRANTS)', () => {
  it('let a granted API tenant list and read a webhook task, but not change it (turns, transcript, mailbox, usage, knowledge), and ask for a check', async () => {
    const taskId = await pullRequestTask();
    const listed = await api('GET', '/tasks?origin=github', { tenant: 'acme' });
    expect(listed.status).toBe(200);
    const tasks = z.array(z.object({ id: z.string(), tenant: z.string(), viewUrl: z.string() })).parse(listed.json['tasks']);
    expect(tasks.find((task) => task.id === taskId)).toMatchObject({ tenant: installation, viewUrl: expect.stringMatching(LINK) });

    const described = await api('GET', `/tasks/${taskId}`, { tenant: 'acme' });
    expect(described.status).toBe(200);
    expect(described.json).toMatchObject({ id: taskId, request: { tenant: installation, origin: 'github' } });
    expect((await openPage(`/tasks/${taskId}/view`, { tenant: 'acme' })).status).toBe(200);
    expect((await api('GET', `/tasks/${taskId}/turns/0`, { tenant: 'acme' })).status).toBe(200);
    // A read-back is a read; a follow-up is a change.
    const readBack = await api('GET', `/tasks/${taskId}/freshness`, { tenant: 'acme' });
    expect(readBack.status).toBe(200);
    expect(readBack.json).toMatchObject({ pullRequest: { headMoved: false }, sources: expect.any(Array) });
    const followUp = await api('POST', `/tasks/${taskId}/mailbox`, { tenant: 'acme', body: { from: 'acme', text: 'hello' } });
    expect(followUp.status).toBe(403);
    expect(followUp.json.error).toMatchObject({ code: 'forbidden' });

    const turn = await api('POST', `/tasks/${taskId}/turns`, { tenant: 'acme', body: { turn: 1 } });
    expect(turn.status).toBe(403);
    expect(turn.json.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('may read it through a grant but not change it') });
    const appended = await api('POST', `/tasks/${taskId}/transcript`, { tenant: 'acme', body: { items: [{ type: 'message', id: 'm1', role: 'assistant', content: 'hi' }] } });
    expect(appended.status).toBe(403);
    // Usage is what the owner's model answered: a change to the task's record.
    const usage = await api('POST', `/tasks/${taskId}/turns/0/usage`, { tenant: 'acme', body: { format: 'anthropic', usage: { input_tokens: 1, output_tokens: 1 } } });
    expect(usage.status).toBe(403);
    expect(usage.json.error).toMatchObject({ code: 'forbidden' });
    // A check is a read of the world (recorded, but it changes nothing the task holds): granted tenants may ask (issue 26).
    const checked = await api('POST', `/tasks/${taskId}/checks`, { tenant: 'acme', body: { action: 'apply-knowledge' } });
    expect(checked.status, JSON.stringify(checked.json)).toBe(200);
    // Knowledge recorded from the task is a change too: a grant reads, and writes nothing anywhere.
    const statement = `Learned through a grant ${crypto.randomUUID()}`;
    const learned = await api('POST', `/tasks/${taskId}/knowledge`, { tenant: 'acme', body: { statement } });
    expect(learned.status).toBe(403);
    expect(learned.json.error).toMatchObject({ code: 'forbidden', message: `task ${taskId} belongs to ${installation}; api:acme may read it through a grant but not change it` });
    const kept = await api('GET', `/knowledge?repo=${fx.owner}/${fx.repo}&limit=200`, { tenant: 'acme' });
    expect(JSON.stringify(kept.json)).not.toContain(statement);
    expect(await settledTask(taskId, installation)).toMatchObject({ turns: [expect.objectContaining({ turn: 0 })] });
  });

  it('give a tenant without grants nothing: the webhook task is neither listed nor readable', async () => {
    const taskId = await pullRequestTask();
    const listed = await api('GET', '/tasks?limit=100', { tenant: 'globex' });
    expect(listed.status).toBe(200);
    expect(z.array(z.object({ id: z.string() })).parse(listed.json['tasks']).map((task) => task.id)).not.toContain(taskId);
    expect((await api('GET', `/tasks/${taskId}`, { tenant: 'globex' })).status).toBe(404);
    expect((await openPage(`/tasks/${taskId}/view`, { tenant: 'globex' })).status).toBe(404);
    expect((await api('POST', `/tasks/${taskId}/turns`, { tenant: 'globex', body: { turn: 1 } })).status).toBe(404);
    expect((await api('GET', `/tasks/${taskId}/freshness`, { tenant: 'globex' })).status).toBe(404);
    expect((await api('POST', `/tasks/${taskId}/mailbox`, { tenant: 'globex', body: { from: 'globex', text: 'hello' } })).status).toBe(404);
  });
});
