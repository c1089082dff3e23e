/**
 * @module durable-objects/task-token-ahead
 * The Task object's slot for a GitHub App task's installation token exchange, begun as an attempt
 * begins (tasks/token-ahead) so that evaluating the wiring overlaps its round trip (issue 56), and
 * taken by the assembly that opens the task's source next (task-wiring `ahead`). An exchange no
 * assembly took is dropped by the next attempt's `begin`.
 */
import type { TokenAhead } from '../src/tasks/token-ahead.ts';
import { turns, TURNS_TO_LEAVE } from './request-signal.ts';
import type { TaskStore } from './task-store.ts';

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
