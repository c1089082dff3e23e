import { env } from 'cloudflare:workers';
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { owesReport } from '../../durable-objects/task-outcome.ts';
import { TaskDescriptionSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { SETTLE_GUARD_MS } from '../support/api.ts';
import { caughtUp } from '../support/task-caught-up.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { E2E_SCOPE, E2E_SLACK_TEAM } from './bindings.ts';
import { recordedHooks, releaseHooks, routeSlackHooks } from './slack-hooks.ts';
import { checkRunsOf, installApp, post, settledTask, slashCommand, SLACK_URL, taskStub } from './support.ts';

const fx = githubFixture();
let stopRouting: () => void = () => {};

beforeAll(() => {
  stopRouting = routeSlackHooks();
});
afterAll(() => stopRouting());

it('acknowledges a slash command at once, assembles at the pull request base, and posts the result to response_url', async () => {
  await installApp();
  const responsePath = `/commands/${E2E_SLACK_TEAM}/${crypto.randomUUID()}`;
  const ack = await post(SLACK_URL, await slashCommand(`${fx.owner}/${fx.repo}#${fx.pull.number} review the error handling`, responsePath));
  expect(ack.status).toBe(200);
  const message = await ack.json<{ response_type: string; text: string }>();
  expect(message.response_type).toBe('ephemeral');
  const taskId = /task `([0-9a-f]{64})`/.exec(message.text)?.[1] ?? '';
  expect(message.text).toBe(`Assembling context for \`${fx.owner}/${fx.repo}\` pull request #${fx.pull.number} (task \`${taskId}\`). The result will be posted here.`);

  const task = await settledTask(taskId, `slack:${E2E_SLACK_TEAM}`);
  expect(task).toMatchObject({ status: 'ready', commit: fx.commits.first, request: { origin: 'slack', pullRequest: { number: fx.pull.number, headSha: fx.commits.head } } });
  expect(await createApiScope(E2E_SCOPE).count(`/repos/${fx.owner}/${fx.repo}/pulls/${fx.pull.number}`)).toBeGreaterThan(0);
  // `#PR` gets the same task facts as a webhook: the lookup's evidence and the served diff.
  const read = TurnResultSchema.parse(await taskStub(taskId).readTurn(`slack:${E2E_SLACK_TEAM}`, 0));
  if (read.status !== 'ok') throw new Error(`turn 0 not readable: ${read.status}`);
  const user = read.turn.messages[3]?.content ?? '';
  expect(user).toContain(`Title: "${fx.pull.title}"\nAuthor: @${fx.pull.author}\nLabels: "docs", "needs review"`);
  expect(user).toContain('- AGENTS.md: modified, +1 -1\n- scripts/run.sh: modified, +0 -0\n- vendor/lib: added, +1 -0');
  expect(user).toContain('Size: 3 files changed, +2 -1 (as GitHub reported when the task was created)');
  expect(user.slice(user.indexOf('<groundwork-task'))).toContain('review the error handling');

  const [hook, ...others] = await recordedHooks(responsePath);
  expect(others).toEqual([]);
  expect(hook).toMatchObject({ method: 'POST', contentType: 'application/json' });
  const posted = JSON.parse(hook?.body ?? '{}') as { response_type?: string; replace_original?: boolean; text?: string };
  expect(posted).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  expect(posted.text).toContain(`*Context ready* for task \`${taskId}\`, digest \`${task.turns[0]?.digest}\``);
  expect(posted.text).toMatch(new RegExp(`<http://127\\.0\\.0\\.1:\\d+/s/${E2E_SCOPE}/${fx.owner}/${fx.repo}/blob/${fx.commits.first}/AGENTS\\.md\\|AGENTS\\.md@${fx.commits.first.slice(0, 12)}>`));
  // A Slack task reports to Slack only.
  expect(await checkRunsOf(taskId)).toEqual([]);
});

/** A slash command's task whose reply Slack takes and does not answer until `release` (test/setup/hooks-server `/held/`). */
async function heldReplyTask(request: string) {
  await installApp();
  const responsePath = `/held/commands/${E2E_SLACK_TEAM}/${crypto.randomUUID()}`;
  const ack = await post(SLACK_URL, await slashCommand(`${fx.owner}/${fx.repo}#${fx.pull.number} ${request}`, responsePath));
  expect(ack.status).toBe(200);
  const taskId = /task `([0-9a-f]{64})`/.exec((await ack.json<{ text: string }>()).text)?.[1] ?? '';
  const stub = taskStub(taskId);
  const owes = () => runInDurableObject(stub, (_, state) => owesReport(state.storage.sql));
  return {
    tenant: `slack:${E2E_SLACK_TEAM}`,
    taskId,
    stub,
    owes,
    /** Once the held reply has reached Slack, still owed: lets it through and waits until the task owes nothing; the reply Slack got. */
    async release(): Promise<unknown> {
      await vi.waitFor(async () => expect(await recordedHooks(responsePath)).toHaveLength(1), { timeout: SETTLE_GUARD_MS });
      expect(await owes()).toBe(true);
      expect(await releaseHooks(responsePath)).toBe(1);
      await caughtUp(taskId, SETTLE_GUARD_MS);
      const [hook, ...others] = await recordedHooks(responsePath);
      expect(others).toEqual([]);
      return JSON.parse(hook?.body ?? '{}');
    },
  };
}

it('answers a caller waiting on the task once turn 0 is stored, while its reply to Slack is still on its way, and sends the reply once', async () => {
  const task = await heldReplyTask('review the retries');
  // A caller waiting as `GET /tasks/:id?wait=` waits: answered as the task settles, not once Slack has the reply.
  const heard = TaskDescriptionSchema.parse(await task.stub.describe(task.tenant, { waitMs: SETTLE_GUARD_MS }));
  expect(heard).toMatchObject({ status: 'ready', turns: [{ turn: 0 }] });
  expect(await task.owes()).toBe(true);
  expect(await task.release()).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining(`*Context ready* for task \`${task.taskId}\``) });
});

it('answers a begin of turn 0 while the task assembles once the turn is stored, while its reply to Slack is still on its way', async () => {
  const task = await heldReplyTask('review the timeouts');
  // Joins the attempt under way (or begins it): answered with turn 0, not once Slack has the reply.
  expect(TurnResultSchema.parse(await task.stub.beginTurn(task.tenant, 0))).toMatchObject({ status: 'ok', turn: { turn: 0 } });
  expect(await task.owes()).toBe(true);
  expect(await task.release()).toMatchObject({ response_type: 'ephemeral' });
});

it('refuses a replayed command (signed six minutes ago) with 401 and creates no Task object', async () => {
  const before = await listDurableObjectIds(env.TASKS);
  const responsePath = `/commands/${E2E_SLACK_TEAM}/${crypto.randomUUID()}`;
  const refused = await post(SLACK_URL, await slashCommand(`${fx.owner}/${fx.repo} explain the build`, responsePath, Date.now() - 6 * 60_000));
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized', message: 'request timestamp is more than 5 minutes old' } });
  expect(await listDurableObjectIds(env.TASKS)).toHaveLength(before.length);
  expect(await recordedHooks(responsePath)).toEqual([]);
});

it('refuses a repository the workspace may not target, in an ephemeral message, and creates no Task object', async () => {
  const before = await listDurableObjectIds(env.TASKS);
  const ack = await post(SLACK_URL, await slashCommand(`${fx.owner}/elsewhere explain the build`, `/commands/${E2E_SLACK_TEAM}/${crypto.randomUUID()}`));
  expect(ack.status).toBe(200);
  expect(await ack.json()).toEqual({
    response_type: 'ephemeral',
    text: `This workspace may not target \`${fx.owner}/elsewhere\`. Ask an administrator to add it to the workspace's allowed repositories.`,
  });
  expect(await listDurableObjectIds(env.TASKS)).toHaveLength(before.length);
});
