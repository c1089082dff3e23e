/**
 * @module test/e2e/support
 * Driving the real Worker entry and the real Task objects as GitHub and Slack would: signed
 * deliveries for the repository the local GitHub API server serves, task stubs, waiting for
 * assembly to end, and the check runs the server recorded for a task.
 */
import { env } from 'cloudflare:workers';
import type { WebhookEventMap } from '@octokit/webhooks-types';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import type { TaskDescription } from '../../src/tasks/task-results.ts';
import { checkedFetch, SETTLE_GUARD_MS } from '../support/api.ts';
import { caughtUp } from '../support/task-caught-up.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import type { RecordedCheckRun } from '../support/github-api-client.ts';
import { deliveryInit, example } from '../triggers/support.ts';
import type { Delivery } from '../triggers/support.ts';
import { signSlackRequest } from '../../src/triggers/slack/verify.ts';
import { E2E_SCOPE, E2E_SLACK_SECRET, E2E_SLACK_TEAM, E2E_WEBHOOK_SECRET } from './bindings.ts';
import { HOOKS_ORIGIN } from './slack-hooks.ts';

export const WEBHOOK_URL = 'http://groundwork.test/webhooks/github';
export const SLACK_URL = 'http://groundwork.test/slack/commands';

export const post = (url: string, init: RequestInit): Promise<Response> => checkedFetch(url, init);

/** A signed delivery as GitHub sends it, with the e2e webhook secret unless told otherwise. */
export function signedDelivery(payload: unknown, options: Delivery = {}): Promise<RequestInit> {
  return deliveryInit(payload, { secret: E2E_WEBHOOK_SECRET, ...options });
}

/**
 * The captured `pull_request.opened` example, retargeted at `owner/repo` of the App installation:
 * by default the served repository's open pull request (base `commits.first`, head `commits.head`).
 */
export function pullRequestOpened(target: { repo?: string; headSha?: string } = {}): WebhookEventMap['pull_request'] {
  const fx = githubFixture();
  const payload = example('pull_request', 'opened');
  const repo = target.repo ?? fx.repo;
  payload.installation = { id: fx.installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==' };
  Object.assign(payload.repository, { name: repo, full_name: `${fx.owner}/${repo}` });
  payload.repository.owner.login = fx.owner;
  const pr = payload.pull_request;
  pr.number = fx.pull.number;
  pr.html_url = `https://github.com/${fx.owner}/${repo}/pull/${fx.pull.number}`;
  pr.title = fx.pull.title;
  pr.body = fx.pull.body;
  pr.user.login = fx.pull.author;
  pr.labels = fx.pull.labels.map((name, i) => ({ id: i + 1, node_id: `LA_${i + 1}`, url: '', name, color: 'ededed', default: false, description: null }));
  // The totals of the served diff: AGENTS.md +1 -1, scripts/run.sh (mode only), vendor/lib +1.
  Object.assign(pr, { changed_files: 3, additions: 2, deletions: 1 });
  Object.assign(pr.base, { ref: fx.pull.baseRef, sha: fx.commits.first, repo: payload.repository });
  Object.assign(pr.head, { ref: fx.pull.headRef, sha: target.headSha ?? fx.commits.head, repo: payload.repository });
  return payload;
}

/** A pull request like pullRequestOpened, with another action (e.g. `synchronize`). */
export function pullRequestEvent(action: string, target: { number?: number; baseRef?: string; baseSha?: string; headRef?: string; headSha?: string } = {}): WebhookEventMap['pull_request'] {
  const payload = pullRequestOpened(target.headSha === undefined ? {} : { headSha: target.headSha });
  Object.assign(payload, { action });
  const pr = payload.pull_request;
  if (target.number !== undefined) pr.number = target.number;
  if (target.baseRef !== undefined) pr.base.ref = target.baseRef;
  if (target.baseSha !== undefined) pr.base.sha = target.baseSha;
  if (target.headRef !== undefined) pr.head.ref = target.headRef;
  return payload;
}

/** A comment on the served repository's open pull request by a member, as GitHub sends it. */
export function pullRequestComment(body: string, number = githubFixture().pull.number): WebhookEventMap['issue_comment'] {
  const fx = githubFixture();
  const payload = example('issue_comment', 'created');
  payload.installation = { id: fx.installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==' };
  Object.assign(payload.repository, { name: fx.repo, full_name: `${fx.owner}/${fx.repo}` });
  payload.repository.owner.login = fx.owner;
  payload.issue.number = number;
  payload.issue.pull_request = {
    url: `https://api.github.com/repos/${fx.owner}/${fx.repo}/pulls/${number}`,
    html_url: `https://github.com/${fx.owner}/${fx.repo}/pull/${number}`,
    diff_url: `https://github.com/${fx.owner}/${fx.repo}/pull/${number}.diff`,
    patch_url: `https://github.com/${fx.owner}/${fx.repo}/pull/${number}.patch`,
    merged_at: null,
  };
  payload.comment.body = body;
  payload.comment.author_association = 'MEMBER';
  return payload;
}

export function taskStub(id: string) {
  return env.TASKS.get(env.TASKS.idFromString(id));
}

/**
 * Polls the Task object until assembly has ended (`ready` or `failed`) and it owes nothing (its
 * report, its index news: task-caught-up). The alarm that assembles
 * turn 0 fires by itself, so tests wait for its effect rather than racing it; `timeoutMs` only
 * catches a hang (see SETTLE_GUARD_MS).
 */
export async function settledTask(id: string, tenant: string, timeoutMs = SETTLE_GUARD_MS): Promise<TaskDescription> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const described = await taskStub(id).describe(tenant);
    if (!('id' in described)) throw new Error(`task ${id} is not visible to ${tenant}`);
    const task = TaskDescriptionSchema.parse(described);
    if (task.status === 'ready' || task.status === 'failed') {
      await caughtUp(id, Math.max(0, deadline - Date.now()));
      return task;
    }
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status} (${task.reason ?? 'no reason'}) after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Check runs the Worker created for `taskId` (its `external_id`); e2e test files share the scope. */
export async function checkRunsOf(taskId: string): Promise<RecordedCheckRun[]> {
  const { checkRuns } = await createApiScope(E2E_SCOPE).stats();
  return checkRuns.filter((run) => run.body['external_id'] === taskId);
}

/**
 * A slash command as Slack posts it (form fields from Slack’s documentation), signed at
 * `signedAt`, from `team` (the e2e workspace unless told otherwise).
 */
export async function slashCommand(text: string, responsePath: string, signedAt = Date.now(), team = E2E_SLACK_TEAM): Promise<RequestInit> {
  const body = new URLSearchParams({
    team_id: team,
    team_domain: 'acme',
    channel_id: 'C2147483705',
    user_id: 'U2147483697',
    command: '/groundwork',
    text,
    response_url: `${HOOKS_ORIGIN}${responsePath}`,
    trigger_id: `${Date.now()}.738474920.${crypto.randomUUID()}`,
  }).toString();
  const timestamp = String(Math.floor(signedAt / 1000));
  const signature = await signSlackRequest(E2E_SLACK_SECRET, timestamp, body);
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Slack-Request-Timestamp': timestamp, 'X-Slack-Signature': signature }, body };
}

/** The App installed on the fixture's account, as GitHub announces it, so `#PR` can be looked up. */
export async function installApp(): Promise<void> {
  const fx = githubFixture();
  const payload = example('installation', 'created');
  payload.installation.id = fx.installationId;
  Object.assign(payload.installation.account ?? {}, { login: fx.owner });
  payload.installation.repository_selection = 'selected';
  payload.repositories = [{ id: 1296269, node_id: 'R', name: fx.repo, full_name: `${fx.owner}/${fx.repo}`, private: false }];
  const response = await post(WEBHOOK_URL, await signedDelivery(payload, { event: 'installation' }));
  const answer: unknown = await response.json();
  if (response.status !== 200 || JSON.stringify(answer) !== JSON.stringify({ installationId: fx.installationId, action: 'created', repositories: 1 })) {
    throw new Error(`installation event answered ${response.status} ${JSON.stringify(answer)}`);
  }
}
