/**
 * An attempt's wait for its installation token's exchange to be under way is bounded
 * (task-token-ahead AHEAD_WAIT_MS): a step of it that never settles (the App's code loading, left
 * pending by a reset object) lets the attempt go on without it, and the assembly's own client asks
 * for the token. Counted, never timed: the wait's timer is held and fired by the test.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { turns } from '../../durable-objects/request-signal.ts';
import { AHEAD_WAIT_MS, TaskTokenAhead } from '../../durable-objects/task-token-ahead.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { holdTimers, type TimerHold } from '../support/held-timers.ts';
import { taskStoreOf } from '../support/task-object.ts';

const request = TaskRequestSchema.parse({ origin: 'github', tenant: 'github:1', repo: 'acme/mono', ref: 'main', request: 'Review it.', githubInstallationId: 1 });

let hold: TimerHold<'wait'> | undefined;
afterEach(() => {
  hold?.release();
  hold = undefined;
  vi.restoreAllMocks();
});

/** `begin` with the App's code loaded by `load`; whether it had settled before the wait's timer fired, and what it said. */
async function begun(load: ConstructorParameters<typeof TaskTokenAhead>[0]) {
  hold = holdTimers({ wait: { from: 'src/lib/deadline.ts', ms: AHEAD_WAIT_MS } });
  const timers = hold.held.wait;
  return runInDurableObject(env.TASKS.get(env.TASKS.newUniqueId()), async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', request, 0, 1);
    const ahead = new TaskTokenAhead(load);
    let settled: boolean | undefined;
    void ahead.begin(store, env).then((value) => (settled = value));
    // Turns enough for every step that can settle to have settled (never awaited: one may not).
    await turns(10);
    const before = { settled, held: timers.count };
    timers.fire();
    await turns(10);
    return { before, answer: settled, taken: ahead.take() };
  });
}

describe("an attempt's wait for its installation token ahead", () => {
  it('goes on without the exchange once its wait is over, when a step of it never settles', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await begun(() => new Promise(() => undefined));
    // Held: nothing settled it, the wait's timer is armed; fired, the attempt goes on with nothing to take.
    expect(result).toEqual({ before: { settled: undefined, held: 1 }, answer: false, taken: undefined });
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([`installation token ahead of the wiring: not under way within ${AHEAD_WAIT_MS} ms; the assembly asks for it itself`]);
  });

  it('clears its wait when the exchange needed no request', async () => {
    const result = await begun(async () => ({ installationClient: () => undefined, tokenAhead: () => undefined }) as never);
    expect(result.before).toEqual({ settled: false, held: 0 });
    expect(result.answer).toBe(false);
  });
});

describe("a creation's wait for its installation token's store read", () => {
  it('goes on once its wait is over when the App code never loads', async () => {
    hold = holdTimers({ wait: { from: 'src/lib/deadline.ts', ms: AHEAD_WAIT_MS } });
    const timers = hold.held.wait;
    const ahead = new TaskTokenAhead(() => new Promise(() => undefined));
    let done = false;
    const waited = ahead.early({ repo: request.repo, githubInstallationId: 1 }, env).then(() => (done = true));
    await turns(10);
    // Held: the creation waits on the read that never begins, bounded by the wait's timer.
    expect({ done, held: timers.count }).toEqual({ done: false, held: 1 });
    timers.fire();
    await waited;
    expect(done).toBe(true);
  });
});
