/**
 * The first turn's attempt tells the tenant's index it is under way beside the assembly, not
 * before it (issue 56: a round trip to another object the assembly does not need), nor before its
 * first GitHub request is out (the installation token's, else the assembly's first: that work held
 * the request), nor later than the assembly's end, and the outcome's report goes
 * out only after that one is done, so the index hears them in order; an
 * index that cannot be told does not fail the attempt. An alarm that joins a failing attempt after
 * it armed its retry leaves the retry armed. The attempt answers once its final status is stored;
 * it ends (the alarm that joins it with it) after the report that follows. The cache writes of the
 * attempt's reads do not hold up the stored turn, its report or its answer; the attempt ends after
 * them. An attempt whose assembly code
 * never loads fails at its bound and arms its retry. Reports, writes and that bound's timer are held
 * open by the test, never timed.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { FirstTurnAttempts, LEDGER_LOAD_MS, type AttemptDeps } from '../../durable-objects/first-turn-attempts.ts';
import { turns } from '../../durable-objects/request-signal.ts';
import { createTaskAssembler } from '../../durable-objects/task-assembler.ts';
import { TurnLedger } from '../../durable-objects/turn-ledger.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { createMemoryTree } from '../support/memory-tree.ts';
import { holdTimers } from '../support/held-timers.ts';
import { storedAssemblerDeps, taskStoreOf } from '../support/task-object.ts';

const COMMIT = 'c'.repeat(40);

async function memorySource(): Promise<RepositorySource> {
  const tree = await createMemoryTree({ 'AGENTS.md': 'Use tabs.\n' });
  return {
    repository: 'memory:test',
    resolve: async () => ({ status: 'ok', commit: COMMIT }),
    snapshot: (commit, options) => createTreeSnapshot({ repository: 'memory:test', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader, ...options }),
  };
}

const tick = (): Promise<void> => turns(1);

/** The attempts of a stored task, each dependency a test leaves out answering at once: no alarm, no writes, an index that hears it. */
function attemptsOf(deps: Pick<AttemptDeps, 'store' | 'ledger'> & Partial<AttemptDeps>): FirstTurnAttempts {
  return new FirstTurnAttempts({ setAlarm: async () => undefined, finish: async () => undefined, reportToIndex: async () => true, writesDone: async () => undefined, ...deps });
}

/** A task stored in the object, and the ledger that assembles its turns from `source` (after `opening`, when given). */
function storedTask(state: DurableObjectState, source: RepositorySource, opening?: () => Promise<void>): { store: ReturnType<typeof taskStoreOf>; ledger: TurnLedger } {
  const store = taskStoreOf(state.storage.sql);
  store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
  const openSource = async () => (await opening?.(), { source });
  const ledger = new TurnLedger({
    store,
    assemble: createTaskAssembler({ registry: createDefaultRegistry(), openSource, ...storedAssemblerDeps(store, state.storage.sql) }),
  });
  return { store, ledger };
}

describe('first turn attempts and the index report', () => {
  for (const answer of ['answers', 'throws'] as const) {
    it(`assembles and stores turn 0 while the attempt's index report is in flight, and finishes after it ${answer}`, async () => {
      const source = await memorySource();
      const stub = env.TASKS.get(env.TASKS.newUniqueId());
      await runInDurableObject(stub, async (_, state) => {
        const { store, ledger } = storedTask(state, source);
        const reports: Array<{ status: string | undefined; answer(): void }> = [];
        const events: string[] = [];
        const attempts = attemptsOf({
          store,
          ledger: async () => ledger,
          finish: async (status) => void events.push(`finish ${status}`),
          reportToIndex: () =>
            new Promise<boolean>((resolve, reject) => {
              events.push(`report ${store.task()?.status}`);
              reports.push({ status: store.task()?.status, answer: () => (answer === 'answers' ? resolve(true) : reject(new Error('the index is down'))) });
            }),
        });

        const run = attempts.run();
        while (store.turn(0) === undefined) await tick();
        // Turn 0 is stored with the first report still unanswered; the outcome waits for it.
        expect(reports.map((report) => report.status)).toEqual(['assembling']);
        await turns(5);
        expect(events).toEqual(['report assembling']);
        reports[0]?.answer();
        const result = await run;
        expect(result.status).toBe('ok');
        expect(events).toEqual(['report assembling', 'finish ready']);
      });
    });
  }

  it('tells the index of the attempt only once its token is asked for', async () => {
    const source = await memorySource();
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const { store, ledger } = storedTask(state, source);
      // The token's exchange under way, held open by the test.
      let asked = (): void => undefined;
      const ahead = new Promise<boolean>((resolve) => (asked = () => resolve(true)));
      const reports: Array<string | undefined> = [];
      const attempts = attemptsOf({
        store,
        ledger: async () => ledger,
        ahead: () => ahead,
        reportToIndex: async () => (reports.push(store.task()?.status), true),
      });

      const run = attempts.run();
      await turns(5);
      expect(store.task()?.status).toBe('assembling');
      expect(reports).toEqual([]);
      asked();
      expect((await run).status).toBe('ok');
      expect(reports).toEqual(['assembling']);
    });
  });

  it("tells the index of an attempt that asked for no token only once the assembly's first request is handed over", async () => {
    const source = await memorySource();
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const events: string[] = [];
      // Opening the source is where the assembly's first request goes out, as the wiring's client
      // resolving the ref does; held until the test lets it through.
      let open = (): void => undefined;
      const opened = new Promise<void>((resolve) => (open = resolve));
      let attempts: FirstTurnAttempts | undefined;
      const { store, ledger } = storedTask(state, source, async () => {
        await opened;
        events.push('request');
        attempts?.requestSent();
      });
      attempts = attemptsOf({
        store,
        ledger: async () => ledger,
        ahead: async () => false,
        finish: async (status) => void events.push(`finish ${status}`),
        reportToIndex: async () => (events.push(`report ${store.task()?.status}`), true),
      });

      const run = attempts.run();
      await turns(5);
      expect(store.task()?.status).toBe('assembling');
      expect(events).toEqual([]);
      open();
      expect((await run).status).toBe('ok');
      expect(events).toEqual(['request', 'report assembling', 'finish ready']);
    });
  });

  it('tells the index of an attempt that makes no request once its assembly ends, before its outcome', async () => {
    const source = await memorySource();
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const { store, ledger } = storedTask(state, source);
      const events: string[] = [];
      const attempts = attemptsOf({
        store,
        ledger: async () => ledger,
        finish: async (status) => void events.push(`finish ${status} with turn 0 ${store.turn(0) ? 'stored' : 'missing'}`),
        reportToIndex: async () => (events.push(`report with turn 0 ${store.turn(0) ? 'stored' : 'missing'}`), true),
      });
      expect((await attempts.run()).status).toBe('ok');
      expect(events).toEqual(['report with turn 0 stored', 'finish ready with turn 0 stored']);
    });
  });

  // A client's begin ran the attempt; the alarm comes while the attempt tells the index how it ended.
  for (const when of ['before', 'after'] as const) {
    it(`leaves the retry armed when the alarm joins a failing attempt ${when} it armed its retry`, async () => {
      const stub = env.TASKS.get(env.TASKS.newUniqueId());
      await runInDurableObject(stub, async (_, state) => {
        const store = taskStoreOf(state.storage.sql);
        store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
        const armed: number[] = [];
        const reports: Array<() => void> = [];
        const attempts = attemptsOf({
          store,
          ledger: async () => {
            throw new Error('the network is down');
          },
          setAlarm: async (at) => void armed.push(at),
          reportToIndex: () => new Promise<boolean>((resolve) => reports.push(() => resolve(true))),
        });

        const begun = attempts.run();
        // The attempt's first report (beside the assembly) is held; the outcome's comes after arming.
        const reportsBeforeAlarm = when === 'before' ? 1 : 2;
        while (reports.length < reportsBeforeAlarm) {
          if (reports.length === 1) reports[0]?.();
          await tick();
        }
        expect(armed).toHaveLength(when === 'before' ? 0 : 1);
        const alarm = attempts.fromAlarm();
        while (reports.length < 2) {
          reports[0]?.();
          await tick();
        }
        reports[1]?.();
        expect((await begun).status).toBe('failed');
        await alarm;
        expect(store.task()).toMatchObject({ status: 'pending', attempts: 1 });
        // Joined before the retry was armed, the alarm is not that retry; joined after, it may have been, and is armed again.
        const retry = armed[0];
        expect(retry).toBeGreaterThan(0);
        expect(armed).toEqual(when === 'before' ? [retry] : [retry, retry]);
      });
    });
  }
});

describe('first turn attempts and the cache writes of their reads', () => {
  it('stores and reports turn 0 while the writes are held, answers with them held, and ends the attempt only after them', async () => {
    const source = await memorySource();
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const store = taskStoreOf(state.storage.sql);
      store.insertTask('t', TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', ref: 'main', request: 'Fix it.' }), 0, 1);
      // The source's writes behind, held open until the test lets them through.
      let release = (): void => undefined;
      const writes = new Promise<void>((resolve) => (release = resolve));
      const handed: Array<(options: { deadlineMs: number }) => Promise<void>> = [];
      const events: string[] = [];
      const ledger = new TurnLedger({
        store,
        assemble: createTaskAssembler({
          registry: createDefaultRegistry(),
          openSource: async () => ({ source, settled: () => (events.push('writes asked'), writes) }),
          ...storedAssemblerDeps(store, state.storage.sql),
          writesBehind: (settled) => void handed.push(settled),
        }),
      });
      const attempts = attemptsOf({
        store,
        ledger: async () => ledger,
        finish: async (status) => void events.push(`finish ${status} with turn 0 ${store.turn(0) ? 'stored' : 'missing'}`),
        writesDone: async () => {
          events.push('waits for the writes');
          await Promise.all(handed.map((settled) => settled({ deadlineMs: 60_000 })));
        },
      });

      let ended = false;
      const answered = attempts.run();
      // The alarm joins the attempt and waits for its end.
      const end = attempts.fromAlarm().finally(() => (ended = true));
      while (!events.includes('writes asked')) await tick();
      await turns(5);
      // Stored and reported (the check run is posted from `finish`), the writes still running.
      expect(events).toEqual(['finish ready with turn 0 stored', 'waits for the writes', 'writes asked']);
      // Its answer does not wait for them; its end does.
      expect((await answered).status).toBe('ok');
      expect(ended).toBe(false);
      release();
      await end;
      expect(store.turn(0)?.item?.content).toContain('Use tabs.');
      // The assembler handed them over and never waited itself.
      expect(handed).toHaveLength(1);
    });
  });

  it("answers once turn 0's final status is stored, with the report still on its way; the alarm that joins it ends after the report", async () => {
    const source = await memorySource();
    const stub = env.TASKS.get(env.TASKS.newUniqueId());
    await runInDurableObject(stub, async (_, state) => {
      const { store, ledger } = storedTask(state, source);
      let report = (): void => undefined;
      const reported = new Promise<void>((resolve) => (report = resolve));
      const attempts = attemptsOf({ store, ledger: async () => ledger, finish: async () => ({ ended: reported }) });
      let ended = false;
      const end = attempts.fromAlarm().finally(() => (ended = true));
      expect((await attempts.run()).status).toBe('ok');
      await turns(5);
      expect(ended).toBe(false);
      report();
      await end;
      expect(ended).toBe(true);
    });
  });

  it('fails an attempt whose assembly code does not load within its bound, and arms the retry', async () => {
    const hold = holdTimers({ load: { from: 'durable-objects/first-turn-attempts.ts', ms: LEDGER_LOAD_MS } });
    try {
      const stub = env.TASKS.get(env.TASKS.newUniqueId());
      await runInDurableObject(stub, async (_, state) => {
        const { store } = storedTask(state, await memorySource());
        const alarms: number[] = [];
        const attempts = attemptsOf({
          store,
          // A load a reset object left pending: it never settles.
          ledger: () => new Promise(() => undefined),
          setAlarm: async (at) => void alarms.push(at),
        });
        let result: Awaited<ReturnType<FirstTurnAttempts['run']>> | undefined;
        void attempts.run().then((value) => (result = value));
        await turns(5);
        expect({ result, held: hold.held.load.count, status: store.task()?.status }).toEqual({ result: undefined, held: 1, status: 'assembling' });
        hold.held.load.fire();
        await turns(5);
        expect(result).toEqual({ status: 'failed', reason: `the assembly code did not load within ${LEDGER_LOAD_MS / 1000} s` });
        expect(store.task()?.status).toBe('pending');
        expect(alarms).toHaveLength(1);
      });
    } finally {
      hold.release();
    }
  });
});
