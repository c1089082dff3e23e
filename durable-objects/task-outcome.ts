/**
 * @module durable-objects/task-outcome
 * A task's end: its final status stored with what it still owes (the outcome's report where the
 * task came from, a check run or a Slack reply; the tenant's index its news) and an alarm, in one
 * step; the report begun, and the callers waiting for the task answered as soon as their answers
 * can leave (once the report's request is out); then the index told. An agent waiting on the task
 * hears of turn 0 as the report goes out, not after its round trip to GitHub or Slack, as it did
 * while the report came before the status (issue 56: 146 ms later at the bench's 100 ms of
 * latency, and up to the notification's 10 s deadline against a host that does not answer).
 *
 * The owed report keeps notification at least once: it is stored with the status and removed
 * only once sent, so an object restarted in between sends it from its alarm (which the status's
 * step armed for CATCH_UP_MS later). A notification the host refused is logged where it is sent
 * (notify/notify-task) and not sent again, as before.
 */
import { listingsBehind, type TaskListings } from './task-listings.ts';
import type { TaskReadiness } from './task-readiness.ts';
import type { TaskRow, TaskStore } from './task-store.ts';

const REPORT_OWED = 'report_owed';

/** How soon a finished task that still owes something (its report, a listing) tries again. */
export const CATCH_UP_MS = 60_000;

type FinalStatus = 'ready' | 'failed';

export interface OutcomeDeps {
  sql: SqlStorage;
  store: TaskStore;
  readiness: TaskReadiness;
  storage: Pick<DurableObjectStorage, 'setAlarm'>;
  /** Sends the outcome where the task came from (task-wiring `report`); rejects only when it could not try. */
  report(task: TaskRow, outcome: { status: FinalStatus; reason: string | null }): Promise<void>;
  /** Resolves once the object's next request to the network has left (first-turn-attempts `nextRequest`). */
  requestOut(): Promise<void>;
  /** The task's listings (task-listings). */
  listings: Pick<TaskListings, 'behind' | 'owe' | 'report'>;
}

/** Whether the task in this storage still owes its outcome's report. */
export function owesReport(sql: SqlStorage): boolean {
  return sql.exec('SELECT 1 FROM meta WHERE key = ?', REPORT_OWED).toArray().length > 0;
}

/** Whether the task in this storage owes anything: its report, or a listing (a test waits on it rather than on a clock). */
export function outcomeOwed(sql: SqlStorage): boolean {
  return owesReport(sql) || listingsBehind(sql);
}

export class TaskOutcome {
  readonly #deps: OutcomeDeps;
  /** The report being sent, which the alarm joins rather than sending it twice. */
  #sending: Promise<boolean> | undefined;

  constructor(deps: OutcomeDeps) {
    this.#deps = deps;
  }

  /** Whether anything of a finished task is still owed: its report, or a listing. */
  behind(): boolean {
    return outcomeOwed(this.#deps.sql);
  }

  /** Stores the final status; resolves with the rest of the end (`ended`: the report, the index, the alarm) under way. */
  async finish(status: FinalStatus, reason: string | null): Promise<{ ended: Promise<void> }> {
    const { store, sql, storage, listings } = this.#deps;
    const task = store.task();
    if (!task) return { ended: Promise.resolve() };
    // One step (no await between the writes): the status, what it owes (the index its news, the
    // report where the task came from) and the alarm that sends them if the object restarts first.
    store.setStatus(status, reason, Date.now());
    if (task.request.notify) sql.exec("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING", REPORT_OWED);
    listings.owe();
    const at = Date.now() + CATCH_UP_MS;
    const armed = storage.setAlarm(at);
    if (task.request.notify) {
      // The callers waiting are answered once the report's first request is out (or the report
      // ended without one): their answers could not leave sooner, the thread being the report's
      // until that request, and their work (the description) then does not hold the request.
      // Answered at once, they heard 1 or 2 ms after the check run reached GitHub, which came 5
      // to 15 ms later (bench/first-turn, 10 rounds); with the commit and the answers awaited
      // before the report, 10 ms before it, which came 27 ms later. A timer's turn after the
      // request is out: the request leaves when this turn of the thread ends (after the writes
      // before it commit), and the callers' answers (each a description of the task) ran in that
      // turn, ahead of it.
      const sending = this.#send();
      void Promise.race([this.#deps.requestOut(), sending])
        .then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
        .then(() => this.#deps.readiness.settle());
    } else this.#deps.readiness.settle();
    await armed;
    return { ended: this.catchUp(at) };
  }

  /**
   * Sends what the finished task owes, then arms the alarm: retention when nothing is left, else
   * another try CATCH_UP_MS later (`armed`: the alarm already set, which is not set again).
   */
  async catchUp(armed?: number): Promise<void> {
    const { listings, storage, store } = this.#deps;
    const task = store.task();
    if (!task) return;
    const sent = await this.#send();
    // After the report, as before the status came first: told beside it, the index objects' work
    // shared the check run's window on local workerd's one thread (+3 to +10 ms to the check run,
    // 10 rounds of bench/first-turn with nobody waiting), and a listing can wait a round trip.
    const indexed = listings.behind() ? await listings.report(task) : true;
    const at = indexed && sent ? task.expires_at : Date.now() + CATCH_UP_MS;
    if (at !== armed) await storage.setAlarm(at);
  }

  /** The owed report sent, or the sending under way joined. */
  #send(): Promise<boolean> {
    this.#sending ??= this.#sendReport().finally(() => (this.#sending = undefined));
    return this.#sending;
  }

  async #sendReport(): Promise<boolean> {
    const task = this.#deps.store.task();
    if (!task || !owesReport(this.#deps.sql) || (task.status !== 'ready' && task.status !== 'failed')) return true;
    try {
      await this.#deps.report(task, { status: task.status, reason: task.status_reason });
    } catch (error) {
      console.error(`task ${task.task_id}: its outcome could not be reported (${error instanceof Error ? error.message : String(error)}); the alarm tries again`);
      return false;
    }
    this.#deps.sql.exec('DELETE FROM meta WHERE key = ?', REPORT_OWED);
    return true;
  }
}
