/**
 * @module test/support/held-alarms
 * Holds the runtime's alarms of every Task object, and the first attempt a task's creation begins
 * (first-turn-attempts `start`), so no task assembles by itself in the background: each alarm that
 * comes due finds a handler that only counts it, and is spent; each start is only counted. A file
 * that creates many tasks only to list them otherwise has every one of them assembling at once in
 * its runner, and on a loaded machine the one task a test waits on is then as slow as all of them
 * together. A test that needs a task assembled begins its turn 0 (POST /tasks/:id/turns), which
 * runs the first attempt and answers when it has ended, or runs the object's own alarm handler
 * (`run`): then a task has made exactly the attempts the test ran, however slow the machine.
 */
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, vi } from 'vitest';
import { FirstTurnAttempts } from '../../durable-objects/first-turn-attempts.ts';
import { TaskObject } from '../../src/index.ts';
import { CATCH_UP_MS } from '../../durable-objects/task-outcome.ts';

export interface HeldStarts {
  /** First attempts a creation would have begun while held. */
  readonly count: number;
  /** Lets creations begin their first attempt again. */
  release(): void;
}

/**
 * Holds the first attempt every task's creation begins: the task is stored and its alarm armed as
 * always, and nothing assembles it until its alarm or a client's begin of turn 0 does. One hold at a
 * time: it replaces the method on the class every Task object uses.
 */
export function holdFirstAttemptStarts(): HeldStarts {
  const start = Object.getOwnPropertyDescriptor(FirstTurnAttempts.prototype, 'start');
  let count = 0;
  Object.defineProperty(FirstTurnAttempts.prototype, 'start', {
    configurable: true,
    writable: true,
    value: () => {
      count++;
    },
  });
  return {
    get count() {
      return count;
    },
    release() {
      if (start) Object.defineProperty(FirstTurnAttempts.prototype, 'start', start);
    },
  };
}

/** Runs `create` (a creation, inside a Task object) with the first attempt it would begin held. */
export async function withoutFirstAttempt<T>(create: () => Promise<T>): Promise<T> {
  const starts = holdFirstAttemptStarts();
  try {
    return await create();
  } finally {
    starts.release();
  }
}

export interface HeldAlarms {
  /** Alarms that came due while held. */
  readonly due: number;
  /** First attempts creations would have begun while held (0 when `starts` is `run`). */
  readonly starts: number;
  /**
   * Runs the object's own alarm handler once, to its end, as the runtime would when its alarm came
   * due, and answers the times the handler armed (they are armed too; one that comes due while
   * held is only counted).
   */
  run(stub: DurableObjectStub<TaskObject>): Promise<number[]>;
  /** Gives the handler back; an alarm spent while held does not come again. */
  release(): void;
}

/**
 * One hold at a time: it replaces the handler on the class the Worker exports. `starts: 'run'`
 * leaves the first attempt a creation begins to run (a test of that start); held by default.
 */
export function holdTaskAlarms(options: { starts?: 'held' | 'run' } = {}): HeldAlarms {
  const starts = options.starts === 'run' ? undefined : holdFirstAttemptStarts();
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
    get starts() {
      return starts?.count ?? 0;
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
      starts?.release();
    },
  };
}

/**
 * `holdTaskAlarms` around each test of the file: a file whose tests create their tasks in a Task
 * object of their own, whose runtime instance would otherwise run the attempt again from the alarm
 * the creation armed.
 */
export function holdTaskAlarmsInEachTest(options: { starts?: 'held' | 'run' } = {}): void {
  let alarms: HeldAlarms | undefined;
  beforeEach(() => {
    alarms = holdTaskAlarms(options);
  });
  afterEach(() => {
    alarms?.release();
  });
}

/**
 * Whether the alarms a finished task armed (`armed`, as `run` answers them, from `since` on) are
 * its end's only: retention last, before it at most the end's catch-up, a minute away
 * (durable-objects/task-outcome), and never an attempt's retry, which is seconds away.
 */
export function endOnly(armed: readonly number[], expiresAt: number, since: number): boolean {
  return armed.at(-1) === expiresAt && armed.slice(0, -1).every((at) => at === expiresAt || at >= since + CATCH_UP_MS);
}
