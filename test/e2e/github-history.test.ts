/**
 * A pull request's earlier review through the real Worker entry, signed webhook deliveries, the
 * Task objects and the installation's task index: the review a push starts is shown the one
 * before it, and never what another tenant (a Slack workspace asking about the same pull
 * request) ran.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnResultSchema } from '../../src/tasks/task-results.ts';
import type { AssembledTurn } from '../../src/context/turn-schema.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { E2E_SLACK_TEAM } from './bindings.ts';
import { routeSlackHooks } from './slack-hooks.ts';
import { installApp, post, pullRequestEvent, settledTask, signedDelivery, slashCommand, SLACK_URL, taskStub, WEBHOOK_URL } from './support.ts';

const fx = githubFixture();
const tenant = `github:${fx.installationId}`;
const slack = `slack:${E2E_SLACK_TEAM}`;
let stopRouting: () => void = () => {};

// Slack's response_url is answered by the hooks server; `#PR` is looked up through the installed App.
beforeAll(async () => {
  stopRouting = routeSlackHooks();
  await installApp();
});
afterAll(() => stopRouting());

/** This file's pull request events, told apart from other files' by their title (deliveries are keyed by their signed body). */
function ours<T extends { pull_request: { title: string } }>(event: T): T {
  event.pull_request.title = 'Earlier reviews in the history';
  return event;
}

async function review(action: string, headSha?: string): Promise<string> {
  const payload = ours(pullRequestEvent(action, headSha === undefined ? {} : { headSha }));
  const response = await post(WEBHOOK_URL, await signedDelivery(payload, { event: 'pull_request', delivery: crypto.randomUUID() }));
  const id = String((await response.json<Record<string, unknown>>())['taskId']);
  expect(await settledTask(id, tenant)).toMatchObject({ status: 'ready' });
  return id;
}

async function askInSlack(text: string): Promise<string> {
  const ack = await post(SLACK_URL, await slashCommand(`${fx.owner}/${fx.repo}#${fx.pull.number} ${text}`, `/commands/${E2E_SLACK_TEAM}/${crypto.randomUUID()}`));
  const id = /task `([0-9a-f]{64})`/.exec((await ack.json<{ text: string }>()).text)?.[1] ?? '';
  expect(await settledTask(id, slack)).toMatchObject({ status: 'ready' });
  return id;
}

async function turn0(id: string, owner: string): Promise<AssembledTurn> {
  const read = TurnResultSchema.parse(await taskStub(id).readTurn(owner, 0));
  if (read.status !== 'ok') throw new Error(`turn 0 of ${id}: ${read.status}`);
  return read.turn;
}

const earlier = (turn: AssembledTurn) => turn.entries.filter((e) => e.provider === 'history').map((e) => e.source.uri.replace('groundwork:task/', ''));
const text = (turn: AssembledTurn) => (turn.items[0]?.type === 'message' ? turn.items[0].content : '');

describe('history of a pull request through the Worker', () => {
  it("shows the review a push starts the pull request's earlier review first, and no other tenant's task", async () => {
    const asked = await askInSlack('why does the retry loop twice?');
    const first = await review('opened');
    const second = await review('synchronize', fx.commits.first);

    const turn = await turn0(second, tenant);
    const shown = earlier(turn);
    expect(shown[0]).toBe(first);
    expect(shown).not.toContain(asked);
    expect(turn.providers.find((p) => p.name === 'history')).toMatchObject({ outcome: 'included' });
    const content = text(turn);
    expect(content).toContain(`Task ${first}, from github with agent reviewer`);
    expect(content).toContain(`Pull request: #${fx.pull.number} (the one this task is about)`);
    expect(content).toContain(`Commit: ${fx.commits.first} (the one this task reads)`);
    expect(content).toContain('Knowledge it recorded: not shown (agent "reviewer" does not grant knowledge:read)');
    const link = new RegExp(`Inspector: (http://groundwork\\.test/tasks/${first}/view\\?exp=\\d+&sig=[0-9a-f]{64})\\n`).exec(content)?.[1];
    expect(link).toBeDefined();
    // Followed in a browser, with no token: the earlier review's page, not a 401.
    const page = await post(String(link), { method: 'GET' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(first);
    expect(content).toContain(`Request (the earlier task's words, evidence only):\nReview pull request #${fx.pull.number} "Earlier reviews in the history"`);
    expect(content).not.toContain('why does the retry loop twice?');

    // The workspace's next question sees its own earlier task, and none of the installation's.
    const again = await askInSlack('and the timeout?');
    const theirs = await turn0(again, slack);
    expect(earlier(theirs)).toEqual([asked]);
    expect(JSON.stringify(theirs)).not.toMatch(new RegExp(`${first}|${second}`));
  });
});
