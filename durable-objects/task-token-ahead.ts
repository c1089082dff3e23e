/**
 * @module durable-objects/task-token-ahead
 * The Task object's slot for a GitHub App task's installation token exchange, begun as an attempt
 * begins (tasks/token-ahead) so that evaluating the wiring overlaps its round trip (issue 56), and
 * taken by the assembly that opens the task's source next (task-wiring `ahead`). An exchange no
 * assembly took is dropped by the next attempt's `begin`.
 *
 * A task being created begins it earlier (`early`), from the repository and installation its
 * arguments name before they are read with their schemas, and leaves the token store's read turns
 * of the event loop to leave: a cold object's first read of a delivery (~4 ms of schema code), the
 * task's storing and an API create's report to the tenant's index then run while the store is
 * read, which they preceded (issue 56 goal 3: the cold turn's first request 21 against 32 ms after
 * the 202 on local workerd, docs/benchmarks). The first attempt takes that exchange, or begins its
 * own when none could be begun from the names as the arguments held them.
 */
import { withDeadline } from '../src/lib/deadline.ts';
import type { TokenAhead, TokenAheadBegun } from '../src/tasks/token-ahead.ts';
import { turns, TURNS_TO_LEAVE } from './request-signal.ts';
import type { TaskStore } from './task-store.ts';

/** The App's installation code (tasks/github-app-code), loaded on first use. */
type AppCode = typeof import('../src/tasks/github-app-code.ts');

/**
 * How long an attempt waits for the exchange to be under way before it goes on without it (the
 * assembly's own client then asks for the token): the token store's read (2 s at most) and the
 * JWT take milliseconds. A step that never settles must not hold the attempt, which has no other
 * deadline before its assembly's: a Task object reset while it loaded the App's code left that
 * load pending for every later attempt in its isolate (test/e2e/github-intake under load, in
 * vitest's module runner).
 */
export const AHEAD_WAIT_MS = 5_000;

/** The exchange `early` began, if it could begin one. */
type Early = Promise<TokenAheadBegun | undefined>;

export class TaskTokenAhead {
  #ahead: TokenAhead | undefined;
  /** The exchange `early` began for a task not stored yet. */
  #early: Early | undefined;
  readonly #load: () => Promise<AppCode>;

  /** `load`: the App's code; its dynamic import unless a test holds it. */
  constructor(load: () => Promise<AppCode> = () => import('../src/tasks/github-app-code.ts')) {
    this.#load = load;
  }

  /**
   * Begins the exchange for the stored task's turn 0 and resolves once its request is out: true
   * when one went out, false when none was needed or begun, or when it was not under way within
   * AHEAD_WAIT_MS. Never rejects: without it, the assembly's own client asks for the token.
   */
  async begin(store: TaskStore, env: Env): Promise<boolean> {
    this.#ahead = undefined;
    const early = this.#early;
    this.#early = undefined;
    // #begin never rejects: a rejection here is the wait's deadline.
    return withDeadline(AHEAD_WAIT_MS, () => `not under way within ${AHEAD_WAIT_MS} ms`, () => this.#begin(store, env, early)).catch((error: unknown) => {
      console.warn(`installation token ahead of the wiring: ${error instanceof Error ? error.message : String(error)}; the assembly asks for it itself`);
      return false;
    });
  }

  /**
   * Begins the exchange for a task about to be stored, from `request` as its arguments name it
   * (unread: anything but a repository name and an installation number begins nothing), and
   * resolves once its read or request has had its turns to leave (tasks/token-ahead `asked`; at
   * once when the token was in memory), or after AHEAD_WAIT_MS. Never rejects; the next `begin`
   * takes the exchange or drops it.
   */
  async early(request: unknown, env: Env): Promise<void> {
    const { repo, githubInstallationId } = (request ?? {}) as { repo?: unknown; githubInstallationId?: number };
    if (typeof repo !== 'string' || !Number.isSafeInteger(githubInstallationId) || githubInstallationId! < 1) return;
    const begun = (this.#early = this.#load().then((code) => code.tokenAhead({ repo, githubInstallationId }, env)).catch(() => undefined));
    // The store's read is handed over; it leaves as the thread waits for I/O (request-signal). A
    // wait past AHEAD_WAIT_MS goes on without it (its message is never read: no message).
    if (await withDeadline(AHEAD_WAIT_MS, String, async () => (await begun)?.asked).catch(() => false)) await turns(TURNS_TO_LEAVE);
  }

  async #begin(store: TaskStore, env: Env, early: Early | undefined): Promise<boolean> {
    const task = store.task();
    if (!task || store.turn(0)) return false;
    try {
      // Begun for the names the stored request holds: the schema keeps a repository name tokenAhead
      // accepted (no space to trim) and an installation number as they are.
      const begun = (early && (await early)) || (await this.#load()).tokenAhead(task.request, env);
      if (!begun) return false;
      this.#ahead = begun.ahead;
      // The request is left its turns to leave before the wiring's evaluation (request-signal).
      const underWay = await begun.underWay;
      if (underWay) await turns(TURNS_TO_LEAVE);
      return underWay;
    } catch (error) {
      console.warn(`installation token ahead of the wiring: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /** The exchange begun, once: the assembly that opens the source takes it. */
  take(): TokenAhead | undefined {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    return ahead;
  }
}
