/**
 * @module durable-objects/intake-pending
 * A Task object asked before its intake shard (task-intake) handed its delivery on asks the shard
 * for it. Apart from intake-entry, which the shard loads too: only the Task object asks.
 */
import { withDeadline } from '../src/lib/deadline.ts';
import { intakeStub } from '../src/tasks/task-intake.ts';
import { readIntakeEntry } from './intake-entry.ts';

/** One read of a warm object. */
const ASK_DEADLINE_MS = 5_000;

/**
 * The delivery of `taskId` its shard holds and has not handed on yet, else null. A shard that does
 * not answer, or holds what cannot be read, is an error, not a task that does not exist.
 */
export async function pendingIntakeEntry(env: Env, taskId: string): Promise<ReturnType<typeof readIntakeEntry> | null> {
  const shard = intakeStub(env, taskId);
  const entry = await withDeadline(ASK_DEADLINE_MS, () => `the intake shard of task ${taskId} did not answer within ${ASK_DEADLINE_MS / 1000} s`, () => shard.pending(taskId));
  return entry === null ? null : readIntakeEntry(entry);
}
