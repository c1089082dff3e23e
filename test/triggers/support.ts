/**
 * @module test/triggers/support
 * What the trigger tests share: real GitHub webhook payloads from @octokit/webhooks-examples,
 * signing with the real signers, a small fake TaskService of our own contract that dedupes by
 * idempotency key the way the Task Durable Object does, a fetch that records outbound calls,
 * and the trigger routes mounted the way the app mounts them.
 */
import examples from '@octokit/webhooks-examples';
import type { WebhookEventMap, WebhookEventName } from '@octokit/webhooks-types';
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/http/app-env.ts';
import { ApiError, envelope } from '../../src/http/errors.ts';
import { durableKnowledgeService } from '../../src/knowledge/durable-knowledge-service.ts';
import type { RouteDeps } from '../../src/routes/deps.ts';
import { githubWebhookRoute } from '../../src/routes/github-webhook.ts';
import { slackCommandRoute } from '../../src/routes/slack-command.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { pullRequestIndexName, type PullRequestIndex, type Routed } from '../../src/tasks/pull-request-index.ts';
import type { MailboxPost, TaskRequest, TaskRequestInput } from '../../src/tasks/task-request.ts';
import type { TaskService } from '../../src/tasks/task-service.ts';
import type { MailboxResult } from '../../src/tasks/task-results.ts';
import { signGitHubPayload } from '../../src/triggers/github/verify.ts';
import { githubFixture } from '../support/github-api-client.ts';

export const SECRET = 'current-webhook-secret';
export const PREVIOUS_SECRET = 'previous-webhook-secret';
export const SLACK_SECRET = 'slack-signing-secret';
export const NOW = Date.parse('2026-11-20T12:00:00Z');

/** A deep copy of the first captured example of `name` with `action`. */
export function example<N extends WebhookEventName>(name: N, action?: string): WebhookEventMap[N] {
  const definition = examples.find((candidate) => candidate.name === name);
  const found = definition?.examples.find((payload) => action === undefined || ('action' in payload && payload.action === action));
  if (!found) throw new Error(`no ${name} example with action ${action ?? '(any)'}`);
  // The examples array is a union over all events; `name` picked this one.
  return structuredClone(found) as WebhookEventMap[N];
}

/**
 * The captured `issue_comment.created` example as a comment on pull request #1 of the example
 * repository, through the App installation the trigger tests use.
 */
export function prComment(body: string, options: { association?: string } = {}) {
  const payload = example('issue_comment', 'created');
  payload.installation = { id: 4242, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==' };
  payload.comment.body = body;
  if (options.association) payload.comment.author_association = options.association as typeof payload.comment.author_association;
  payload.issue.pull_request = {
    url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1',
    html_url: 'https://github.com/Codertocat/Hello-World/pull/1',
    diff_url: 'https://github.com/Codertocat/Hello-World/pull/1.diff',
    patch_url: 'https://github.com/Codertocat/Hello-World/pull/1.patch',
    merged_at: null,
  };
  return payload;
}

export interface CreateCall {
  request: TaskRequest;
  idempotencyKey: string | undefined;
  id: string;
  created: boolean;
}

export interface AmendCall {
  taskId: string;
  tenant: string;
  post: MailboxPost;
}

export interface FakeTasks extends TaskService {
  calls: CreateCall[];
  amends: AmendCall[];
  /** Requests that made a new task. */
  created(): TaskRequest[];
}

/**
 * Validates like the real service and keys tasks by idempotency key, deciding before any await.
 * A follow-up reaches a task it created, once per key, under the task's tenant. A task created
 * for a pull request does not list itself (a Task object does so only after its intake shard
 * hands it on, and then only to repair): the trigger must record it.
 */
export function fakeTaskService(): FakeTasks {
  const byKey = new Map<string, string>();
  const calls: CreateCall[] = [];
  const amends: AmendCall[] = [];
  const appended = new Map<string, string>();
  return {
    calls,
    amends,
    created: () => calls.filter((call) => call.created).map((call) => call.request),
    async amend(taskId, tenant, post): Promise<MailboxResult> {
      amends.push({ taskId, tenant, post });
      const owner = calls.find((call) => call.id === taskId);
      if (!owner || owner.request.tenant !== tenant) return { status: 'not-found' };
      const key = `${taskId} ${post.key ?? amends.length}`;
      const known = appended.get(key);
      const id = known ?? `local:mailbox:${appended.size + 1}`;
      appended.set(key, id);
      return { status: 'ok', item: { id, type: 'mailbox', role: 'user', from: post.from, content: post.text, receivedAt: new Date(NOW).toISOString() }, duplicate: known !== undefined };
    },
    async create(input: TaskRequestInput, options = {}) {
      const request = TaskRequestSchema.parse(input);
      const key = options.idempotencyKey;
      const existing = key === undefined ? undefined : byKey.get(key);
      const id = existing ?? randomTaskId();
      if (key !== undefined && existing === undefined) byKey.set(key, id);
      calls.push({ request, idempotencyKey: key, id, created: existing === undefined });
      await Promise.resolve();
      return { id, status: 'pending', created: existing === undefined };
    },
  };
}

function randomTaskId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface Secrets {
  GITHUB_WEBHOOK_SECRET?: string;
  GITHUB_WEBHOOK_SECRET_PREVIOUS?: string;
  GITHUB_APP_ID?: string;
  GITHUB_APP_CLIENT_ID?: string;
  GITHUB_APP_PRIVATE_KEY?: string;
  GITHUB_API_URL?: string;
  SLACK_SIGNING_SECRET?: string;
  SLACK_TEAM_REPOS?: string;
}

/** The test Worker's bindings plus the secrets a deployment would set. */
export function testEnv(secrets: Secrets = {}): Env & Secrets {
  const fx = githubFixture();
  return {
    ...env,
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_SECRET,
    GITHUB_APP_ID: fx.appId,
    GITHUB_APP_PRIVATE_KEY: fx.keyPkcs8,
    GITHUB_API_URL: 'https://api.github.test',
    SLACK_SIGNING_SECRET: SLACK_SECRET,
    SLACK_TEAM_REPOS: JSON.stringify({ T0001: ['acme/widgets', 'tools/*'] }),
    ...secrets,
  };
}

/** The pull request index as the Durable Object keeps it, in memory, for one test: tasks in the order of their places. */
export function fakePullRequestIndex(): PullRequestIndex {
  const tasks = new Map<string, Array<{ taskId: string; place: number }>>();
  const deliveries = new Map<string, Routed>();
  let last = 0;
  const nextPlace = () => ++last;
  return {
    async lookup(pr, delivery) {
      const name = pullRequestIndexName(pr);
      return { latest: tasks.get(name)?.at(-1)?.taskId ?? null, routed: deliveries.get(`${name} ${delivery}`) ?? null, place: nextPlace() };
    },
    async record(pr, delivery, routed, place) {
      const name = pullRequestIndexName(pr);
      if (!deliveries.has(`${name} ${delivery}`)) deliveries.set(`${name} ${delivery}`, routed);
      const known = tasks.get(name) ?? [];
      if (routed.kind !== 'task') return { previous: null };
      const placed = known.some((task) => task.taskId === routed.taskId) ? known : [...known, { taskId: routed.taskId, place: place ?? nextPlace() }].sort((a, b) => a.place - b.place);
      tasks.set(name, placed);
      const at = placed.findIndex((task) => task.taskId === routed.taskId);
      return { previous: placed[at - 1]?.taskId ?? null };
    },
  };
}

/**
 * The trigger routes as the app mounts them (`app.route('/', ...)`), with an onError that
 * renders ApiError in the one envelope like src/app.ts does.
 */
export function triggerApp(tasks: TaskService, options: { fetch?: typeof fetch; now?: number; pullRequests?: PullRequestIndex } = {}): Hono<AppEnv> {
  const index = options.pullRequests ?? fakePullRequestIndex();
  const deps: RouteDeps = { tasks: () => tasks, pullRequests: () => index, knowledge: durableKnowledgeService, now: () => options.now ?? NOW };
  const routeOptions = options.fetch === undefined ? {} : { fetch: options.fetch };
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('requestId', 'test-request');
    await next();
  });
  app.route('/', githubWebhookRoute(deps, routeOptions));
  app.route('/', slackCommandRoute(deps, routeOptions));
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(envelope(error.code, error.message, c.get('requestId')), error.status);
    throw error;
  });
  return app;
}

export interface Delivery {
  event?: string;
  delivery?: string;
  secret?: string;
  /** Replaces the computed signature header; `null` leaves it out. */
  signature?: string | null;
  contentType?: string;
}

export async function deliveryInit(payload: unknown, options: Delivery = {}): Promise<RequestInit> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  if (options.event !== '') headers['X-GitHub-Event'] = options.event ?? 'pull_request';
  if (options.delivery !== '') headers['X-GitHub-Delivery'] = options.delivery ?? crypto.randomUUID();
  const signature = options.signature === undefined ? await signGitHubPayload(options.secret ?? SECRET, body) : options.signature;
  if (signature !== null) headers['X-Hub-Signature-256'] = signature;
  return { method: 'POST', headers, body };
}

export interface RecordedCall {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that records each request and answers with `answer`; nothing leaves the test. */
export function recordingFetch(answer: (call: RecordedCall) => Response | Promise<Response>): typeof fetch & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const call = { method: request.method, url: request.url, headers: request.headers, body: await request.text() };
    calls.push(call);
    return answer(call);
  };
  return Object.assign(fake, { calls });
}

/** Answers the installation-token exchange the way GitHub does, and `routes` for the rest. */
export function githubApi(routes: (call: RecordedCall) => Response | undefined): ReturnType<typeof recordingFetch> {
  return recordingFetch((call) => {
    if (call.method === 'POST' && /\/app\/installations\/\d+\/access_tokens$/.test(call.url)) {
      return Response.json({ token: 'ghs_installation_token', expires_at: new Date(Date.now() + 3_600_000).toISOString() }, { status: 201 });
    }
    return routes(call) ?? Response.json({ message: 'Not Found' }, { status: 404 });
  });
}

export const WEBHOOK_URL = 'http://groundwork.test/webhooks/github';

/** Sends one signed delivery of `event` through the trigger app with a fresh fake task service. */
export async function deliver(payload: unknown, event: string, options: { fetch?: typeof fetch } = {}) {
  const tasks = fakeTaskService();
  const response = await triggerApp(tasks, options).request(WEBHOOK_URL, await deliveryInit(payload, { event }), testEnv());
  return { status: response.status, body: await response.json(), tasks };
}
