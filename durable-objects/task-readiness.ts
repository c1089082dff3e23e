/**
 * @module durable-objects/task-readiness
 * Callers of a Task object waiting for its task to settle (`ready` or `failed`), without polling:
 * each wait is a promise the object resolves when it stores the final status, or the wait's own
 * timer ends it at its bound. Nothing runs in between (one timer per wait, cleared when the task
 * settles first), so a waiting caller holds no loop in the object and its other calls go on.
 * Kept per object state (`readinessOf`), so a test reads how many wait in the object it names.
 */
import { MAX_TASK_WAIT_SECONDS } from '../src/tasks/task-wait.ts';

export type WaitEnd = 'settled' | 'bound';

export class TaskReadiness {
  readonly #waiters = new Set<() => void>();

  /** Resolves when `settle` is called or after `ms` (at most MAX_TASK_WAIT_SECONDS), whichever comes first. */
  wait(ms: number): Promise<WaitEnd> {
    const bound = Math.min(Math.max(0, ms), MAX_TASK_WAIT_SECONDS * 1000);
    return new Promise((resolve) => {
      const end = (how: WaitEnd) => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(how);
      };
      const wake = () => end('settled');
      const timer = setTimeout(() => end('bound'), bound);
      this.#waiters.add(wake);
    });
  }

  /** Callers waiting now (a test counts them to know a wait began, instead of sleeping). */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** The task settled: every waiting caller is answered now. */
  settle(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}

const BY_STATE = new WeakMap<DurableObjectState, TaskReadiness>();

/** The readiness of the Task object whose state this is. */
export function readinessOf(state: DurableObjectState): TaskReadiness {
  let readiness = BY_STATE.get(state);
  if (!readiness) {
    readiness = new TaskReadiness();
    BY_STATE.set(state, readiness);
  }
  return readiness;
}
