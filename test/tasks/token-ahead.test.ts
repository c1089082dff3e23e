/**
 * A GitHub App task's first attempt asks for its installation token before it loads and builds its
 * wiring (issue 56 goal 3: that CPU then runs during the exchange's round trip), and the wiring's
 * clients use that one exchange: they find its token, or fail with its failure, never asking
 * again. Each Task object here reads a GitHub API scope of its own; the order of events is counted
 * (the outbound fetch and the wiring's build, both spied in this isolate), never timed; the
 * exchange's answer is held open by the test where the race needs it.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as wiring from '../../durable-objects/task-wiring.ts';
import { TaskObject } from '../../durable-objects/task.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { getConfig } from '../../src/env.ts';
import { openTaskSource } from '../../src/tasks/open-source.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import type { TaskRequestInput } from '../../src/tasks/task-request.ts';
import { tokenAhead, type TokenAhead } from '../../src/tasks/token-ahead.ts';
import { createApiScope, githubFixture, type ApiScope, type ScopeConfig } from '../support/github-api-client.ts';
import { appTaskInput, watchIndexAndTurns } from '../support/attempt-events.ts';
import { holdTaskAlarmsInEachTest } from '../support/held-alarms.ts';

const fx = githubFixture();
const reviewer = resolveAgent('reviewer');
if (!reviewer.ok) throw new Error(reviewer.error);
const agent = reviewer.agent;

/** The deployment's bindings with GITHUB_API_URL pointed at `scope`. */
const envFor = (scope: ApiScope): Env => Object.assign({}, env, { GITHUB_API_URL: scope.baseUrl });
const TOKEN_PATH = /\/app\/installations\/\d+\/access_tokens$/;
const outbound = globalThis.fetch.bind(globalThis);
const build = wiring.wireTask;

holdTaskAlarmsInEachTest({ starts: 'run' });
afterEach(() => vi.restoreAllMocks());

interface Attempt {
  /**
   * What happened, in order: `token` (the exchange's request handed to fetch), `wiring` (built),
   * `github` (any other GitHub request); with `watch`, also `turn` (a zero-delay timer: a turn of
   * the event loop left to I/O) and `index` (the attempt's report to the task's listings begun).
   */
  events: string[];
  status: string;
  reason: string | null;
  tokenRequests: number;
}

/**
 * The exchange as the wiring's clients get it, telling the test when one waits on it: a Promise
 * of another class, so `await` asks its `then` as any thenable's.
 */
class Watched<T> extends Promise<T> {
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  onWait: () => void = () => {};

  override then<A = T, B = never>(fulfilled?: ((value: T) => A | PromiseLike<A>) | null, rejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.onWait();
    return super.then(fulfilled, rejected);
  }
}

function watched(ahead: TokenAhead | undefined, onWait: () => void): TokenAhead | undefined {
  if (!ahead) return undefined;
  const exchange = new Watched<unknown>((resolve, reject) => void ahead.exchange.then(resolve, reject));
  exchange.onWait = onWait;
  return { ...ahead, exchange };
}

/**
 * Creates a task for `repo` (the fixture's repository by default) in a Task object reading
 * `scope`, and waits for its first attempt to end. `holdToken`: the exchange's request reaches
 * GitHub only once a client of the wiring waits on it (`waits` in the events).
 */
async function firstAttempt(scope: ApiScope, options: { config?: ScopeConfig; request?: Partial<TaskRequestInput>; holdToken?: boolean; watch?: boolean } = {}): Promise<Attempt> {
  vi.restoreAllMocks();
  if (options.config) await scope.configure(options.config);
  const events: string[] = [];
  if (options.watch) watchIndexAndTurns(events);
  let tokenHeld: (() => void) | undefined;
  const waited = new Promise<void>((resolve) => (tokenHeld = resolve));
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(scope.baseUrl)) {
      const token = TOKEN_PATH.test(url);
      events.push(token ? 'token' : 'github');
      if (token && options.holdToken) await waited;
    }
    return outbound(input, init);
  });
  vi.spyOn(wiring, 'wireTask').mockImplementation((taskEnv, state) => {
    events.push('wiring');
    const onWait = () => {
      if (!events.includes('waits')) events.push('waits');
      tokenHeld?.();
    };
    return build(taskEnv, { ...state, ahead: () => watched(state.ahead?.(), onWait) });
  });
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const task = new TaskObject(state, envFor(scope));
    const input: TaskRequestInput = { ...appTaskInput(fx), ...options.request };
    // As a delivery's: the index first hears of the task from its attempt.
    await task.create(input, agent, options.watch ? { indexReport: 'with-assembly' } : {});
    const described = TaskDescriptionSchema.parse(await task.describe(input.tenant, { waitMs: 60_000 }));
    return { events, status: described.status, reason: described.reason ?? null, tokenRequests: await scope.count('/access_tokens') };
  });
}

/**
 * Turns of the event loop between the first `from` and the first `to` in `events`, which must be
 * the only events between them (the creation's own turns for the token store's read, task-token-ahead
 * `early`, and the attempt's for the request, may both come after the request); -1 otherwise.
 */
function leftFor(events: string[], from: string, to: string): number {
  const [start, end] = [events.indexOf(from), events.indexOf(to)];
  const between = events.slice(start + 1, end);
  return start >= 0 && end > start && between.every((event) => event === 'turn') ? between.length : -1;
}

describe("a GitHub App task's installation token, asked for before its wiring", () => {
  it('sends the token request before the wiring is built, and makes no other', async () => {
    const attempt = await firstAttempt(createApiScope());
    expect(attempt).toMatchObject({ status: 'ready', tokenRequests: 1 });
    expect(attempt.events.slice(0, 2)).toEqual(['token', 'wiring']);
    expect(attempt.events.filter((event) => event === 'token')).toHaveLength(1);
  });

  it("joins the wiring's first GitHub request to the exchange under way: one exchange when they race", async () => {
    const attempt = await firstAttempt(createApiScope(), { holdToken: true });
    expect(attempt).toMatchObject({ status: 'ready', tokenRequests: 1 });
    expect(attempt.events.slice(0, 4)).toEqual(['token', 'wiring', 'waits', 'github']);
  });

  it('fails the task with the reason of a refused exchange, asked once', async () => {
    const attempt = await firstAttempt(createApiScope(), { request: { githubInstallationId: 999 } });
    expect(attempt).toMatchObject({ status: 'failed', tokenRequests: 1 });
    expect(attempt.reason).toContain('GitHub App installation 999 not found (404); check the installation id and that the app is still installed');
    expect(attempt.reason).not.toContain('ago');
    // The wiring's client waited on the exchange and took its failure.
    expect(attempt.events).toEqual(['token', 'wiring', 'waits']);
  });

  it("tells the task's listings of the attempt only after the token request is out", async () => {
    const attempt = await firstAttempt(createApiScope(), { watch: true });
    expect(attempt).toMatchObject({ status: 'ready', tokenRequests: 1 });
    // The report's work (the index objects', its acknowledgement's write) no longer runs before the request leaves.
    expect(leftFor(attempt.events, 'token', 'index')).toBeGreaterThanOrEqual(3);
  });

  it('leaves the event loop three turns for the token request before the wiring, and none when no request was needed', async () => {
    const scope = createApiScope();
    const cold = await firstAttempt(scope, { watch: true });
    expect(leftFor(cold.events, 'token', 'index')).toBeGreaterThanOrEqual(3);
    expect(cold.events.indexOf('index')).toBeLessThan(cold.events.indexOf('wiring'));
    // A second task of the installation in this isolate finds the token in memory: no request to wait for.
    const warm = await firstAttempt(scope, { watch: true });
    expect(warm).toMatchObject({ status: 'ready', tokenRequests: 1 });
    // The index report waits for the assembly's first request (request-signal), so nothing is left to wait for here.
    expect(warm.events[0]).toBe('wiring');
  });

  it("tells the task's listings of an attempt whose token was in memory only after the assembly's first GitHub request is out", async () => {
    const scope = createApiScope();
    await firstAttempt(scope);
    const warm = await firstAttempt(scope, { watch: true });
    expect(warm).toMatchObject({ status: 'ready', tokenRequests: 1 });
    // Begun with the wiring, the report's work ran before the pull request's files were asked for.
    const [wired = -1, github = -1, index = -1] = ['wiring', 'github', 'index'].map((event) => warm.events.indexOf(event));
    expect(github, warm.events.join(' ')).toBeGreaterThan(wired);
    expect(warm.events.slice(github, index + 1), warm.events.join(' ')).toEqual(['github', 'turn', 'turn', 'turn', 'index']);
  });

  it('asks for a token ahead only for a task that reads GitHub as an App installation', async () => {
    const app = await firstAttempt(createApiScope());
    expect(app.events.slice(0, 2)).toEqual(['token', 'wiring']);
    // GITHUB_TOKEN reads it, or no credential does: the attempt begins nothing ahead.
    const plain = await firstAttempt(createApiScope(), { request: { githubInstallationId: undefined } });
    expect(plain.events).not.toContain('token');
    expect(plain.tokenRequests).toBe(0);
  });
});

describe("a source opened with an exchange that ended before its first request", () => {
  const request = { repo: `${fx.owner}/${fx.repo}`, githubInstallationId: fx.installationId };

  /** The source's resolve of `main` on a fresh scope with `config`, with an exchange begun ahead and ended first, or without one (as before issue 56). */
  async function resolveOn(config: ScopeConfig, installation: number, ahead: boolean) {
    const scope = createApiScope();
    await scope.configure(config);
    const scoped = envFor(scope);
    const begun = ahead ? tokenAhead({ ...request, githubInstallationId: installation }, scoped) : undefined;
    if (ahead && !begun) throw new Error('no exchange begun');
    await begun?.ahead.exchange.catch(() => undefined);
    const opened = await openTaskSource({ ...request, githubInstallationId: installation }, { config: getConfig(scoped), fetch: (input, init) => fetch(input, init), tokens: env.TENANTS, holdWrites: true, ahead: begun?.ahead });
    const resolved = await opened.source.resolve('main');
    await opened.settled?.();
    return { resolved, tokenRequests: await scope.count('/access_tokens'), usage: opened.usage?.() };
  }

  it('fails with the reason a client of its own gets, when GitHub refused the installation', async () => {
    const [today, ahead] = [await resolveOn({}, 999, false), await resolveOn({}, 999, true)];
    expect(today.resolved).toMatchObject({ status: 'failed', permanent: true });
    expect(ahead).toEqual(today);
  });

  it('fails with the reason a client of its own gets, when the exchange failed for a reason that may pass, and does not ask again', async () => {
    const faults = { faults: [{ status: 502, times: 20, match: '/access_tokens' }] };
    const [today, ahead] = [await resolveOn(faults, fx.installationId, false), await resolveOn(faults, fx.installationId, true)];
    expect(today.resolved).toMatchObject({ status: 'failed', reason: expect.stringContaining(`installation ${fx.installationId}`) });
    expect(ahead).toEqual(today);
  });

  it("reads with the exchange's token and counts its request in the source's usage", async () => {
    const ahead = await resolveOn({}, fx.installationId, true);
    expect(ahead).toMatchObject({ resolved: { status: 'ok' }, tokenRequests: 1, usage: { requests: { token: 1 } } });
  });
});
