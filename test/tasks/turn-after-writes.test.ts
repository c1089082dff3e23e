/**
 * A turn begun as soon as turn 0 is ready reads what turn 0 read ahead from the cache, not from
 * GitHub (durable-objects/cache-writes): turn 0's cache writes start after its report, so the
 * later turn waits for them. Turn 0 begun again (as the MCP tools begin it once the task is ready)
 * is only read, and waits for none of them. The cache's puts are held by the test, and the read's
 * 2 s limit is a held timer that never fires, so nothing here depends on how fast the machine is.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskObject } from '../../durable-objects/task.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { TaskDescriptionSchema, TurnResultSchema } from '../../src/tasks/task-results.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { holdTaskAlarms } from '../support/held-alarms.ts';
import { holdTimers, type TimerHold } from '../support/held-timers.ts';

const fx = githubFixture();
const reviewer = resolveAgent('reviewer');
if (!reviewer.ok) throw new Error(reviewer.error);

/** env.CACHE, except that every put waits for `release`. */
function heldPuts(): { cache: KVNamespace; started: () => number; release: () => void } {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const cache = new Proxy(env.CACHE, {
    get(target, property) {
      if (property === 'put') {
        return async (...args: Parameters<KVNamespace['put']>) => {
          started++;
          await released;
          return target.put(...args);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { cache, started: () => started, release };
}

let timers: TimerHold<'read'> | undefined;
afterEach(() => timers?.release());

describe('a later turn after turn 0', () => {
  it("waits for turn 0's cache writes and reads its read-ahead from them, asking GitHub nothing turn 0 read", async () => {
    const scope = createApiScope();
    const puts = heldPuts();
    const alarms = holdTaskAlarms({ starts: 'run' });
    timers = holdTimers({ read: { from: 'durable-objects/cache-writes.ts', ms: 2_000 } });
    try {
      const tenant = `github:${fx.installationId}`;
      const stub = env.TASKS.get(env.TASKS.newUniqueId());
      await runInDurableObject(stub, async (_, state) => {
        const task = new TaskObject(state, Object.assign({}, env, { GITHUB_API_URL: scope.baseUrl, CACHE: puts.cache }));
        await task.create({ origin: 'github', tenant, repo: `${fx.owner}/${fx.repo}`, ref: 'main', request: 'Review the change.', githubInstallationId: fx.installationId }, reviewer.agent);
        expect(TaskDescriptionSchema.parse(await task.describe(tenant, { waitMs: 60_000 })).status).toBe('ready');
        const turnZeroReads = await scope.count('/graphql');
        expect(turnZeroReads).toBeGreaterThan(0);

        // Turn 0, stored, is answered with its writes still held.
        expect(TurnResultSchema.parse(await task.beginTurn(tenant, 0))).toMatchObject({ status: 'ok', turn: { turn: 0 } });

        let settled = false;
        const later = task.beginTurn(tenant, 1).finally(() => (settled = true));
        for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
        // Turn 0's writes are under way and held; the later turn waits for them.
        expect(puts.started()).toBeGreaterThan(0);
        expect(settled).toBe(false);
        expect(await scope.count('/graphql')).toBe(turnZeroReads);
        puts.release();
        expect((await later).status).toBe('ok');
        expect(await scope.count('/graphql')).toBe(turnZeroReads);
      });
    } finally {
      puts.release();
      alarms.release();
    }
  });
});
