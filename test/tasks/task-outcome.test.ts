/**
 * A task's end (durable-objects/task-outcome): the callers waiting for it are answered once its
 * status is stored and the report where it came from has its request out (or ended), with that
 * report's answer still to come, and the index hears
 * after the report; the report and the index's news are owed from the step that stores the status until they are sent, so an object
 * restarted in between sends them from its alarm, once however many catch-ups ask. Every report and
 * index answer is held open by the test and released by it; nothing is timed.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, outcomeOwed, owesReport, TaskOutcome, type OutcomeDeps } from '../../durable-objects/task-outcome.ts';
import { TaskListings } from '../../durable-objects/task-listings.ts';
import { TaskReadiness } from '../../durable-objects/task-readiness.ts';
import type { TaskStore } from '../../durable-objects/task-store.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import type { TaskIndexRow } from '../../src/tasks/task-index.ts';
import { taskStoreOf } from '../support/task-object.ts';

const EXPIRES = 4_000_000_000_000;

/** A promise the test settles, and how many times it was asked for. */
function held<T>() {
  let settle: { resolve(value: T): void; reject(error: Error): void } | undefined;
  const calls: unknown[] = [];
  return {
    calls,
    next: (call: unknown) => {
      calls.push(call);
      return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    },
    resolve: (value: T) => settle?.resolve(value),
    reject: (error: Error) => settle?.reject(error),
  };
}

const NO_PULL_REQUEST_INDEX = () => ({ record: async () => ({ status: 'recorded' }) }) as never;

/**
 * A stored task that reports to Slack (`notify`) or nowhere, its attempt under way and the index
 * told so, and an outcome over the object's own storage with held report and index.
 */
async function outcomeOf(state: DurableObjectState, options: { notify: boolean; store?: TaskStore }) {
  const store = options.store ?? taskStoreOf(state.storage.sql);
  if (!options.store) {
    const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.', ...(options.notify ? { notify: { kind: 'slack', responseUrl: 'https://hooks.slack.test/x' } } : {}) });
    store.insertTask('t', request, 0, EXPIRES);
    store.beginAttempt(1);
    const told = new TaskListings(state.storage.sql, { tenant: () => ({ record: async () => ({ status: 'recorded' }) }), pullRequest: NO_PULL_REQUEST_INDEX });
    const task = store.task();
    if (!task || !(await told.report(task)) || told.behind()) throw new Error('the attempt under way was not acknowledged');
  }
  const reports = held<void>();
  const index = held<unknown>();
  /** The object's next request leaving: the report's, when the test says so. */
  const out = held<void>();
  const alarms: number[] = [];
  const readiness = new TaskReadiness();
  const deps: OutcomeDeps = {
    sql: state.storage.sql,
    store,
    readiness,
    storage: { setAlarm: (at) => (alarms.push(Number(at)), state.storage.setAlarm(at)) },
    report: (_, outcome) => reports.next(outcome),
    requestOut: () => out.next('request'),
    listings: new TaskListings(state.storage.sql, { tenant: () => ({ record: (row: TaskIndexRow) => index.next(row) }), pullRequest: NO_PULL_REQUEST_INDEX }),
  };
  return { outcome: new TaskOutcome(deps), store, reports, index, out, alarms, readiness };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await tick();
}

describe("a task's end", () => {
  it("answers the waiting callers once the report's request is out, with its answer still to come, and owes the report until it is sent", async () => {
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const { outcome, store, reports, index, out, alarms, readiness } = await outcomeOf(state, { notify: true });
      const before = Date.now();
      const waiting = readiness.wait(20_000);
      const finishing = outcome.finish('ready', null);
      expect(store.task()?.status).toBe('ready');
      await until(() => reports.calls.length === 1 && out.calls.length === 1);
      // Not before the report's request leaves: until then the thread is the report's.
      await tick();
      expect(readiness.waiting).toBe(1);
      out.resolve();
      // Not in the turn the request is handed over in either (it leaves when that turn ends): every
      // promise job queued by then has run and the caller still waits; a timer's turn answers it.
      for (let job = 0; job < 20; job++) await Promise.resolve();
      expect(readiness.waiting).toBe(1);

      expect(await waiting).toBe('settled');
      expect(store.task()?.status).toBe('ready');
      // Owed from the step that stored the status, with an alarm to send them if the object restarts.
      expect(owesReport(state.storage.sql)).toBe(true);
      expect(outcomeOwed(state.storage.sql)).toBe(true);
      expect(alarms).toHaveLength(1);
      expect(alarms[0]).toBeLessThan(EXPIRES);
      expect(alarms[0]).toBeGreaterThanOrEqual(before + CATCH_UP_MS);

      await until(() => reports.calls.length === 1);
      expect(reports.calls).toEqual([{ status: 'ready', reason: null }]);
      // The index hears after the report, so its work stays out of the report's way.
      expect(index.calls).toEqual([]);
      reports.resolve();
      await until(() => index.calls.length === 1);
      expect(owesReport(state.storage.sql)).toBe(false);
      // The index is sent the stored status, not the row as the attempt began.
      expect(index.calls).toMatchObject([{ taskId: 't', status: 'ready' }]);
      expect(outcomeOwed(state.storage.sql)).toBe(true);
      index.resolve({ status: 'recorded' });
      await (await finishing).ended;
      expect(outcomeOwed(state.storage.sql)).toBe(false);
      expect(alarms.at(-1)).toBe(EXPIRES);
      expect(await state.storage.getAlarm()).toBe(EXPIRES);
    });
  });

  it('sends no report for a task that reports nowhere, and moves the alarm to retention once the index has its status', async () => {
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const { outcome, reports, index, alarms } = await outcomeOf(state, { notify: false });
      const before = Date.now();
      const finishing = outcome.finish('failed', 'no rules');
      await until(() => index.calls.length === 1);
      expect(index.calls).toMatchObject([{ status: 'failed', reason: 'no rules' }]);
      index.resolve({ status: 'recorded' });
      await (await finishing).ended;
      expect(reports.calls).toEqual([]);
      expect(alarms).toHaveLength(2);
      expect(alarms[0]).toBeGreaterThanOrEqual(before + CATCH_UP_MS);
      expect(alarms[1]).toBe(EXPIRES);
      expect(outcomeOwed(state.storage.sql)).toBe(false);
    });
  });

  it('keeps a report it could not send owed, and a restarted object sends it from its alarm once, however many catch-ups ask', async () => {
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const first = await outcomeOf(state, { notify: true });
      const waiting = first.readiness.wait(20_000);
      const finishing = first.outcome.finish('ready', null);
      await until(() => first.reports.calls.length === 1);
      first.reports.reject(new Error('the wiring did not load'));
      // A report that ended without a request still answers them.
      expect(await waiting).toBe('settled');
      await until(() => first.index.calls.length === 1);
      first.index.resolve({ status: 'recorded' });
      await (await finishing).ended;
      expect(owesReport(state.storage.sql)).toBe(true);
      // Tried again a catch-up later, not at retention.
      expect(first.alarms.at(-1)).toBeLessThan(EXPIRES);

      // As the object finds itself after a restart: the same storage, a new outcome.
      const again = await outcomeOf(state, { notify: true, store: first.store });
      expect(again.outcome.behind()).toBe(true);
      const alarm = again.outcome.catchUp();
      const joined = again.outcome.catchUp();
      await until(() => again.reports.calls.length === 1);
      again.reports.resolve();
      await Promise.all([alarm, joined]);
      expect(again.reports.calls).toEqual([{ status: 'ready', reason: null }]);
      // The index had it already: not sent again.
      expect(again.index.calls).toEqual([]);
      expect(outcomeOwed(state.storage.sql)).toBe(false);
      expect(await state.storage.getAlarm()).toBe(EXPIRES);
    });
  });

  it("owes the index the new status from the step that stores it, so an index that could not be told is told from the alarm", async () => {
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const first = await outcomeOf(state, { notify: false });
      const waiting = first.readiness.wait(20_000);
      const finishing = first.outcome.finish('ready', null);
      // Stored with the status, before any report to the index is under way.
      expect(first.index.calls).toEqual([]);
      expect(outcomeOwed(state.storage.sql)).toBe(true);
      expect(await waiting).toBe('settled');
      await until(() => first.index.calls.length === 1);
      first.index.reject(new Error('the index is down'));
      await (await finishing).ended;
      expect(outcomeOwed(state.storage.sql)).toBe(true);
      expect(first.alarms.at(-1)).toBeLessThan(EXPIRES);

      const again = await outcomeOf(state, { notify: false, store: first.store });
      const alarm = again.outcome.catchUp();
      await until(() => again.index.calls.length === 1);
      expect(again.index.calls).toMatchObject([{ taskId: 't', status: 'ready' }]);
      again.index.resolve({ status: 'recorded' });
      await alarm;
      expect(outcomeOwed(state.storage.sql)).toBe(false);
      expect(await state.storage.getAlarm()).toBe(EXPIRES);
    });
  });
});
