/**
 * @module durable-objects/first-turn-attempts
 * The first turn's bounded attempts: each counted before it runs, retried with backoff from the
 * object's alarm unless its failure cannot change (a permanent one, a task item over the cap),
 * never a fourth after an attempt a restart cut off. Concurrent callers (the invocation that
 * created the task, the alarm, an explicit begin of turn 0) share one attempt; the ledger runs
 * providers at most once per stored turn. The alarm that joins an attempt after it armed its retry
 * arms that retry again (`fromAlarm`).
 */
import { withDeadline } from '../src/lib/deadline.ts';
import type { TurnResult } from '../src/tasks/task-results.ts';
import { PermanentAssemblyError } from '../src/tasks/errors.ts';
import type { TaskStore } from './task-store.ts';
import type { TurnLedger } from './turn-ledger.ts';
import { RequestSignal } from './request-signal.ts';
import { turnView } from './turn-view.ts';

export const MAX_ASSEMBLY_ATTEMPTS = 3;
const RETRY_BASE_MS = 2_000;
/**
 * How long an attempt waits for the assembly code (the ledger, built with the wiring) to load: the
 * assembly's own deadline starts once it has, so a load that never settles (a reset object left
 * it pending for the isolate) would hold the attempt for good. A cold load takes milliseconds.
 */
export const LEDGER_LOAD_MS = 10_000;

export interface AttemptDeps {
  store: TaskStore;
  /** Loaded and built on first use (the Task object's wiring); a load that fails fails the attempt. */
  ledger(): Promise<TurnLedger>;
  /**
   * Begins, before the ledger loads, what the attempt's assembly will wait on first (a GitHub App
   * task's installation token: tasks/token-ahead), and resolves once that is under way: true when
   * a request went out for it, false when none was needed. Never rejects.
   */
  ahead?(): Promise<boolean>;
  setAlarm(at: number): Promise<void>;
  /**
   * Stores the final status (the callers waiting for the task are then answered) and resolves with
   * what follows it, `ended`: the outcome's report where the task came from and the index's news
   * (task-outcome), which the attempt's end (the alarm, the cache writes) waits for and its answer
   * does not. Nothing returned: nothing follows.
   */
  finish(status: 'ready' | 'failed', reason: string | null): Promise<{ ended: Promise<void> } | void>;
  /** Tells the tenant's index the task's current state. */
  reportToIndex(): Promise<boolean>;
  /**
   * Resolves once the cache writes of the attempt's reads are done (never rejects). The turn is
   * stored and reported without them; the attempt, and so the alarm that runs it, ends after them.
   */
  writesDone(): Promise<void>;
}

/** An attempt's result, and what its end still waits for once the result is known. */
interface Attempted {
  result: TurnResult;
  ended: Promise<void>;
}

const NOTHING_AFTER = Promise.resolve();

export class FirstTurnAttempts {
  readonly #deps: AttemptDeps;
  /** The attempt under way: its answer as soon as its final status is stored, and its end (its report, its index news, its cache writes). */
  #current: { answer: Promise<TurnResult>; end: Promise<void> } | undefined;
  /** When the latest attempt's retry is due, once it has armed one (until the next attempt begins). */
  #retryAt: number | undefined;
  /** The object's requests to the network, as its wiring hands them over (`requestSent`). */
  readonly #requests = new RequestSignal();

  constructor(deps: AttemptDeps) {
    this.#deps = deps;
  }

  /**
   * The attempt under way, or a new one: its answer once the final status is stored, so a host that
   * begins turn 0 does not wait for the report's round trip to GitHub or Slack (issue 56); the
   * attempt ends (`fromAlarm` waits for it) after the report, the index's news and the cache writes.
   */
  run(): Promise<TurnResult> {
    if (!this.#current) {
      const attempt = this.#attempt();
      const end = attempt
        .then(({ ended }) => ended)
        .finally(() => this.#deps.writesDone())
        .finally(() => (this.#current = undefined));
      // Its failure is the answer's too, which its callers hold, and the alarm's (`fromAlarm`).
      end.catch(() => undefined);
      this.#current = { answer: attempt.then(({ result }) => result), end };
    }
    return this.#current.answer;
  }

  /**
   * For the invocation that stored the task: the first attempt begins now, not one alarm hop later
   * (issue 56), and the caller (the API's create, the intake shard's hand-off) is not held for it.
   * The alarm the creation armed for now stays the at-least-once backstop: it joins this attempt
   * (`fromAlarm`), so its event is in flight for as long as the attempt runs and the runtime retries
   * it if the attempt fails or the object is reset; an attempt that ended before the alarm came
   * leaves a finished task, or a retry armed in the alarm's place. Nothing here needs `waitUntil`:
   * a Durable Object stays active while it waits on outbound I/O, and `ctx.waitUntil` has no effect
   * on its lifetime (developers.cloudflare.com/durable-objects/api/state, "waitUntil").
   */
  start(): void {
    // Its failure is the alarm's, which joins this attempt, fails with it and is retried.
    this.run().catch((error: unknown) => console.error(`first attempt begun at creation: ${error instanceof Error ? error.message : String(error)} (its alarm runs it again)`));
  }

  /** The object's wiring is handing a request to the network (called just before `fetch`). */
  requestSent(): void {
    this.#requests.sent();
  }

  /** Resolves once the object's next request has had its turns to leave (request-signal): the end's report's, for task-outcome. */
  nextRequest(): Promise<void> {
    return this.#requests.next();
  }

  /**
   * For the object's alarm. An attempt that has already armed its retry may still be finishing
   * (telling the index) when an alarm comes: one begun by a client, whose end outlasts the backoff,
   * or one a test's alarm call meets. That alarm joins it, and may be the very retry it armed, which
   * the runtime spends when the handler returns: the retry is armed again, or the task would stay
   * pending with no alarm to run it. (workerd deletes a handler's alarm when it returns unless the
   * handler set one, at any time: `haveDeferredDelete` in src/workerd/io/actor-sqlite.c++.)
   */
  async fromAlarm(): Promise<void> {
    const armed = this.#current === undefined ? undefined : this.#retryAt;
    // The attempt to its end: the alarm's event stays in flight until its report is sent.
    this.run().catch(() => undefined);
    await this.#current?.end;
    if (armed !== undefined && this.#current === undefined && this.#deps.store.task()?.status === 'pending') await this.#deps.setAlarm(armed);
  }

  /** The final status stored, and what follows it (a promise in an object: promises do not nest). */
  async #finish(status: 'ready' | 'failed', reason: string | null): Promise<{ ended: Promise<void> }> {
    return (await this.#deps.finish(status, reason)) ?? { ended: NOTHING_AFTER };
  }

  async #attempt(): Promise<Attempted> {
    const { store, ledger } = this.#deps;
    const before = store.task();
    if (before && before.attempts >= MAX_ASSEMBLY_ATTEMPTS && !store.turn(0)) {
      // Only an attempt cut off mid-way (the object restarted) leaves a task here; it gets no fourth.
      const reason = `attempt ${before.attempts} of ${MAX_ASSEMBLY_ATTEMPTS} ended without a result (the task object restarted while assembling); no attempts remain`;
      return { result: { status: 'failed', reason }, ...(await this.#finish('failed', reason)) };
    }
    const attempt = store.beginAttempt(Date.now());
    this.#retryAt = undefined;
    let reported: Promise<unknown> = Promise.resolve();
    let reason: string;
    try {
      const tokenAsked = (await this.#deps.ahead?.()) ?? false;
      // The index hears of the attempt while it runs, once the attempt's first GitHub request is
      // out (the token's, else the assembly's first read; or once the assembly ends without one):
      // nothing here needs its answer, so the assembly does not wait a round trip to another object
      // first, and that request does not wait behind the report's work on this thread (the index
      // objects', the acknowledgement's write) either (issue 56). The wait begins before the ledger
      // loads, so the assembly's first request cannot come before it. The report is done before the
      // next one goes out (the outcome's), so the index sees them in order.
      const requested = tokenAsked ? undefined : this.#requests.next();
      if (!requested) reported = this.#deps.reportToIndex().catch(() => false);
      const turn = withDeadline(LEDGER_LOAD_MS, () => `the assembly code did not load within ${LEDGER_LOAD_MS / 1000} s`, () => ledger()).then((loaded) => loaded.begin(0));
      if (requested) {
        const ended = turn.then(
          () => undefined,
          () => undefined,
        );
        reported = Promise.race([requested, ended]).then(() => this.#deps.reportToIndex()).catch(() => false);
      }
      const result = await turn;
      await reported;
      if (result.status === 'ok') {
        const { ended } = await this.#finish('ready', null);
        return { result: { status: 'ok', turn: turnView(result.record, result.record, store.requestTranscript(0, result.record.item?.id ?? null)) }, ended };
      }
      // A task item over the cap (follow-ups filled the transcript first) would be over it on every retry.
      reason = result.status === 'conflict' ? `turn 0 conflicts with stored turn ${result.next}` : result.status === 'too-large' ? `its task item: ${result.message}` : 'task not found';
    } catch (error) {
      await reported;
      reason = error instanceof Error ? error.message : String(error);
      if (!(error instanceof PermanentAssemblyError) && attempt < MAX_ASSEMBLY_ATTEMPTS) {
        const delay = RETRY_BASE_MS * 2 ** (attempt - 1);
        store.setStatus('pending', `attempt ${attempt} failed: ${reason}; retrying in ${delay / 1000} s`, Date.now());
        this.#retryAt = Date.now() + delay;
        await this.#deps.setAlarm(this.#retryAt);
        await this.#deps.reportToIndex();
        return { result: { status: 'failed', reason }, ended: NOTHING_AFTER };
      }
    }
    return { result: { status: 'failed', reason }, ...(await this.#finish('failed', reason)) };
  }
}
