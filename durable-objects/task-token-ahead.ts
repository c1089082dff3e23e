/**
 * @module durable-objects/task-token-ahead
 * The Task object's slot for a GitHub App task's installation token exchange, begun as an attempt
 * begins (tasks/token-ahead) so that evaluating the wiring overlaps its round trip (issue 56), and
 * taken by the assembly that opens the task's source next (task-wiring `ahead`). An exchange no
 * assembly took is dropped by the next attempt's `begin`.
 */
import type { TokenAhead } from '../src/tasks/token-ahead.ts';
import type { TaskStore } from './task-store.ts';

/** Turns of the event loop left to the exchange's new request before the attempt goes on. */
const YIELDS = 3;

export class TaskTokenAhead {
  #ahead: TokenAhead | undefined;

  /**
   * Begins the exchange for the stored task's turn 0 and resolves once its request is out: true
   * when one went out, false when none was needed or begun. Never rejects: without it, the
   * assembly's own client asks for the token.
   */
  async begin(store: TaskStore, env: Env): Promise<boolean> {
    this.#ahead = undefined;
    const task = store.task();
    if (!task || store.turn(0)) return false;
    try {
      const begun = (await import('../src/tasks/github-app-code.ts')).tokenAhead(task.request, env);
      if (!begun) return false;
      this.#ahead = begun.ahead;
      // fetch() hands the request over; it goes out as this thread waits for I/O (the isolate's
      // JavaScript and its I/O share one thread), which the wiring's evaluation would delay. A cold
      // isolate's first request (a new connection) took more than one turn to leave: with one wait
      // it reached GitHub after the wiring's evaluation (bench/first-turn). One, as before, for a
      // token that needed no request: without it a warm turn's first request left later (issue 56).
      const underWay = await begun.underWay;
      for (let turn = 0; turn < (underWay ? YIELDS : 1); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
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
