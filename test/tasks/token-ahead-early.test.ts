/**
 * A GitHub App task being created asks for its installation token before the rest of its
 * creation: a delivery's before its entry is read with its schema, an API create's before the
 * tenant's index is told (task-token-ahead `early`, issue 56 goal 3), so that work runs while the
 * token store is read. The first attempt takes that exchange, or begins its own when none could be
 * begun from the names as the arguments held them. The order of events is counted (the token
 * store's read, the entry's read, the index's report, the exchange's request), never timed.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as intakeEntry from '../../durable-objects/intake-entry.ts';
import type { IntakeEntry } from '../../durable-objects/intake-entry.ts';
import { turns } from '../../durable-objects/request-signal.ts';
import { TaskTokenAhead } from '../../durable-objects/task-token-ahead.ts';
import { TaskObject } from '../../durable-objects/task.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { TaskRequestSchema, type TaskRequestInput } from '../../src/tasks/task-request.ts';
import type { TokenAheadBegun } from '../../src/tasks/token-ahead.ts';
import { createApiScope, githubFixture, type ApiScope } from '../support/github-api-client.ts';
import { appTaskInput, watchIndexAndTurns } from '../support/attempt-events.ts';
import { holdTaskAlarmsInEachTest } from '../support/held-alarms.ts';
import { taskStoreOf } from '../support/task-object.ts';

const fx = githubFixture();
const reviewer = resolveAgent('reviewer');
if (!reviewer.ok) throw new Error(reviewer.error);
const agent = reviewer.agent;
const TOKEN_PATH = /\/app\/installations\/\d+\/access_tokens$/;
const outbound = globalThis.fetch.bind(globalThis);

holdTaskAlarmsInEachTest({ starts: 'run' });
afterEach(() => vi.restoreAllMocks());

const input = (): TaskRequestInput => appTaskInput(fx);

/**
 * Creates a task in a Task object reading `scope`, by `create` (as the API does) or from a
 * delivery's stored entry (as its intake shard hands it on), and waits for its first attempt.
 * Events: `store` (a read of the token store), `parse` (the entry read with its schema), `index`
 * (the tenant's index told), `token` (the exchange's request handed to fetch), `turn` (a zero-delay
 * timer: a turn of the event loop left to I/O).
 */
async function created(scope: ApiScope, how: 'api' | 'intake') {
  const events: string[] = [];
  const tenants = new Proxy(env.TENANTS, {
    get(target, property) {
      if (property === 'get') return (key: string, type: 'text') => (events.push('store'), target.get(key, type));
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const parse = intakeEntry.parseIntakeEntry;
  vi.spyOn(intakeEntry, 'parseIntakeEntry').mockImplementation((value) => (events.push('parse'), parse(value)));
  watchIndexAndTurns(events);
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (request, init) => {
    const url = request instanceof Request ? request.url : String(request);
    if (TOKEN_PATH.test(url)) events.push('token');
    return outbound(request, init);
  });
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const task = new TaskObject(state, Object.assign({}, env, { GITHUB_API_URL: scope.baseUrl, TENANTS: tenants }));
    if (how === 'api') await task.create(input(), agent);
    else {
      const entry: IntakeEntry = { request: input(), agent, options: { indexReport: 'with-assembly' } };
      expect(await task.createFromIntake(JSON.stringify(entry))).toEqual({ refused: null });
    }
    const described = TaskDescriptionSchema.parse(await task.describe(input().tenant, { waitMs: 60_000 }));
    return { events, status: described.status, tokenRequests: await scope.count('/access_tokens') };
  });
}

describe("a GitHub App task's token, asked for as the task is created", () => {
  it("reads the token store before a delivery's entry is read with its schema, and asks GitHub once", async () => {
    const result = await created(createApiScope(), 'intake');
    expect(result).toMatchObject({ status: 'ready', tokenRequests: 1 });
    // The store's read is left turns of the event loop to leave (the token's request may go out in them too).
    expect(result.events[0]).toBe('store');
    const read = result.events.slice(1, result.events.indexOf('parse'));
    expect(read.filter((event) => event === 'turn').length, result.events.join(' ')).toBeGreaterThanOrEqual(3);
    expect(result.events.filter((event) => event === 'parse' || event === 'token').sort()).toEqual(['parse', 'token']);
  });

  it("reads the token store before an API create tells the tenant's index", async () => {
    const result = await created(createApiScope(), 'api');
    expect(result).toMatchObject({ status: 'ready', tokenRequests: 1 });
    expect(result.events[0]).toBe('store');
    expect(result.events.indexOf('index'), result.events.join(' ')).toBeGreaterThan(0);
    expect(result.events.filter((event) => event === 'token')).toHaveLength(1);
  });
});

describe('creates that wait for the token store', () => {
  it('store the task once when they come together', async () => {
    const scope = createApiScope();
    const answers = await runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const task = new TaskObject(state, Object.assign({}, env, { GITHUB_API_URL: scope.baseUrl }));
      const entry: IntakeEntry = { request: input(), agent, options: { indexReport: 'with-assembly' } };
      const answers = await Promise.all([task.create(input(), agent), task.createFromIntake(JSON.stringify(entry)), task.create(input(), agent)]);
      TaskDescriptionSchema.parse(await task.describe(input().tenant, { waitMs: 60_000 }));
      return answers;
    });
    expect(answers.map((answer) => ('created' in answer ? answer.created : answer.refused))).toEqual([true, null, false]);
    expect(await scope.count('/access_tokens')).toBe(1);
  });
});

describe('an exchange begun before the task is stored', () => {
  const stored = TaskRequestSchema.parse(input());

  /** `early` for `named`, then the first attempt's `begin` for the stored request; what each exchange was begun for and what the attempt took. */
  async function attempt(named: Record<string, unknown>) {
    const begunFor: unknown[] = [];
    const load = async () =>
      ({
        tokenAhead: (request: { repo: string; githubInstallationId?: number }) => {
          begunFor.push({ repo: request.repo, githubInstallationId: request.githubInstallationId });
          // As tasks/token-ahead: nothing for a name GitHub would not take.
          if (/\s/.test(request.repo)) return undefined;
          const begun: TokenAheadBegun = { ahead: { exchange: Promise.resolve(begunFor.length), meter: {} as never, tokens: {} as never }, underWay: Promise.resolve(false), asked: Promise.resolve(false) };
          return begun;
        },
      }) as never;
    return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
      const ahead = new TaskTokenAhead(load);
      await ahead.early(named, env);
      const store = taskStoreOf(state.storage.sql);
      store.insertTask('t', stored, 0, 1);
      await ahead.begin(store, env);
      await turns(1);
      return { begunFor, taken: await ahead.take()?.exchange };
    });
  }

  it('is the one the first attempt takes when the stored request names the same repository and installation', async () => {
    expect(await attempt({ repo: stored.repo, githubInstallationId: stored.githubInstallationId })).toEqual({ begunFor: [{ repo: stored.repo, githubInstallationId: stored.githubInstallationId }], taken: 1 });
  });

  it('leaves the attempt to begin its own when none could be begun from the names as written', async () => {
    // The schema trims a name; the names as the arguments held them begin nothing.
    const spaced = await attempt({ repo: ` ${stored.repo} `, githubInstallationId: stored.githubInstallationId });
    expect(spaced).toEqual({ begunFor: [{ repo: ` ${stored.repo} `, githubInstallationId: stored.githubInstallationId }, { repo: stored.repo, githubInstallationId: stored.githubInstallationId }], taken: 2 });
  });

  it('is not begun for names that are not a repository name and an installation number', async () => {
    for (const named of [{}, { repo: 7, githubInstallationId: 1 }, { repo: stored.repo, githubInstallationId: '1' }, { repo: stored.repo, githubInstallationId: 1.5 }, { repo: stored.repo, githubInstallationId: 0 }, { repo: stored.repo, githubInstallationId: Number.NaN }, { repo: stored.repo, githubInstallationId: 2 ** 60 }]) {
      const result = await attempt(named);
      // Only the attempt's own exchange, for the stored request.
      expect(result, JSON.stringify(named)).toEqual({ begunFor: [{ repo: stored.repo, githubInstallationId: stored.githubInstallationId }], taken: 1 });
    }
  });
});
