/**
 * @module test/support/held-alarms
 * Holds the runtime's alarms of every Task object, so no task assembles by itself in the
 * background: each alarm that comes due finds a handler that only counts it, and is spent. A file
 * that creates many tasks only to list them otherwise has every one of them assembling at once in
 * its runner, and on a loaded machine the one task a test waits on is then as slow as all of them
 * together. A test that needs a task assembled begins its turn 0 (POST /tasks/:id/turns), which
 * runs the first attempt and answers when it has ended, or runs the object's own alarm handler
 * (`run`): then a task has made exactly the attempts the test ran, however slow the machine.
 */
import { runInDurableObject } from 'cloudflare:test';
import { vi } from 'vitest';
import { TaskObject } from '../../src/index.ts';

export interface HeldAlarms {
  /** Alarms that came due while held. */
  readonly due: number;
  /**
   * Runs the object's own alarm handler once, to its end, as the runtime would when its alarm came
   * due, and answers the times the handler armed (they are armed too; one that comes due while
   * held is only counted).
   */
  run(stub: DurableObjectStub<TaskObject>): Promise<number[]>;
  /** Gives the handler back; an alarm spent while held does not come again. */
  release(): void;
}

/** One hold at a time: it replaces the handler on the class the Worker exports. */
export function holdTaskAlarms(): HeldAlarms {
  const handler = Object.getOwnPropertyDescriptor(TaskObject.prototype, 'alarm');
  const alarm = TaskObject.prototype.alarm;
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
    run: (stub) =>
      runInDurableObject(stub, async (task, state) => {
        const armed: number[] = [];
        const arm = state.storage.setAlarm.bind(state.storage);
        const arming = vi.spyOn(state.storage, 'setAlarm').mockImplementation(async (at, options) => {
          armed.push(Number(at));
          await arm(at, options);
        });
        try {
          await alarm.call(task);
        } finally {
          arming.mockRestore();
        }
        return armed;
      }),
    release() {
      if (handler) Object.defineProperty(TaskObject.prototype, 'alarm', handler);
    },
  };
}
