/**
 * @module test/support/held-alarms
 * Holds the runtime's alarms of every Task object, so no task assembles by itself in the
 * background: each alarm that comes due finds a handler that only counts it, and is spent. A file
 * that creates many tasks only to list them otherwise has every one of them assembling at once in
 * its runner, and on a loaded machine the one task a test waits on is then as slow as all of them
 * together. A test that needs a task assembled begins its turn 0 (POST /tasks/:id/turns), which
 * runs the first attempt and answers when it has ended.
 */
import { TaskObject } from '../../src/index.ts';

export interface HeldAlarms {
  /** Alarms that came due while held. */
  readonly due: number;
  /** Gives the handler back; an alarm spent while held does not come again. */
  release(): void;
}

/** One hold at a time: it replaces the handler on the class the Worker exports. */
export function holdTaskAlarms(): HeldAlarms {
  const handler = Object.getOwnPropertyDescriptor(TaskObject.prototype, 'alarm');
  let due = 0;
  Object.defineProperty(TaskObject.prototype, 'alarm', {
    configurable: true,
    writable: true,
    value: async () => {
      due++;
    },
  });
  return {
    get due() {
      return due;
    },
    release() {
      if (handler) Object.defineProperty(TaskObject.prototype, 'alarm', handler);
    },
  };
}
