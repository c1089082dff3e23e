/**
 * @module durable-objects/intake-pending
 * A Task object asked before its intake shard (task-intake) handed its delivery on asks the shard
 * for it; the object reads what it gets (intake-entry).
 */
import { withDeadline } from '../src/lib/deadline.ts';
import { intakeStub } from '../src/tasks/task-intake.ts';

/** One read of a warm object. */
const ASK_DEADLINE_MS = 5_000;

/**
 * The delivery of `taskId` its shard holds and has not handed on yet (`create`'s arguments as
 * JSON text, unread), else null. A shard that does not answer is an error, not a task that does not exist.
 */
export async function pendingIntakeEntry(env: Env, taskId: string): Promise<string | null> {
  const shard = intakeStub(env, taskId);
  return withDeadline(ASK_DEADLINE_MS, () => `the intake shard of task ${taskId} did not answer within ${ASK_DEADLINE_MS / 1000} s`, () => shard.pending(taskId));
}
