/**
 * @module durable-objects/task-outcome
 * A task's end: its final status stored with what it still owes (the outcome's report where the
 * task came from, a check run or a Slack reply) and an alarm, in one step; the callers waiting for
 * it answered; then the report sent and the tenant's index told. An agent waiting on the task
 * hears of turn 0 once it is stored, not after the report's round trip to GitHub or Slack, as it
 * did while the report came first (issue 56: 146 ms later at the bench's 100 ms of latency, and up
 * to the notification's 10 s deadline against a host that does not answer).
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

  async finish(status: FinalStatus, reason: string | null): Promise<void> {
    const { store, sql, storage, listings } = this.#deps;
    const task = store.task();
    if (!task) return;
    // One step (no await between the writes): the status, what it owes (the index its news, the
    // report where the task came from) and the alarm that sends them if the object restarts first.
    store.setStatus(status, reason, Date.now());
    if (task.request.notify) sql.exec("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING", REPORT_OWED);
    listings.owe();
    const at = Date.now() + CATCH_UP_MS;
    const armed = storage.setAlarm(at);
    // Their answers leave once the status is confirmed (the output gate holds them until then) and
    // the thread is free: when the report's work is done and its request goes out, the commit having
    // been made beside that work. Waiting for the commit and for the answers to leave before the
    // report (storage.sync(), three turns) answered them 10 ms sooner than that request but put
    // the check run 27 ms later (bench/first-turn, cold, 12 rounds).
    this.#deps.readiness.settle();
    await armed;
    await this.catchUp(at);
  }

  /**
   * Sends what the finished task owes, then arms the alarm: retention when nothing is left, else
   * another try CATCH_UP_MS later (`armed`: the alarm already set, which is not set again).
   */
  async catchUp(armed?: number): Promise<void> {
    const { listings, storage, store } = this.#deps;
    // As it is now: the index is sent the stored status.
    const task = store.task();
    if (!task) return;
    const indexed = listings.behind() ? listings.report(task) : Promise.resolve(true);
    this.#sending ??= this.#sendReport().finally(() => (this.#sending = undefined));
    const sent = await this.#sending;
    const at = (await indexed) && sent ? task.expires_at : Date.now() + CATCH_UP_MS;
    if (at !== armed) await storage.setAlarm(at);
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
