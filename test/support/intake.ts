/**
 * An intake shard's row for a delivery, read in the shard (tests only), a wait for the shard's
 * own alarm to hand the delivery on, and an intake that holds deliveries until the test hands
 * them on itself.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { intakeStub, type DeliveryIntake } from '../../src/tasks/task-intake.ts';
import { SETTLE_GUARD_MS } from './api.ts';

export type IntakeRow = {
  entry: string | null;
  due_at: number | null;
  attempts: number;
  last_error: string | null;
};

/** The delivery's row in its shard: `due_at` null once its Task object has it. */
export function intakeRow(taskId: string): Promise<IntakeRow | undefined> {
  return runInDurableObject(intakeStub(env, taskId), (_, state) =>
    state.storage.sql.exec<IntakeRow>('SELECT entry, due_at, attempts, last_error FROM deliveries WHERE task_id = ?', taskId).toArray()[0],
  );
}

/**
 * Waits for the shard's alarm, which the runtime fires by itself, to hand the delivery on, without
 * asking the Task object (which would fetch it). The guard only catches a hang (SETTLE_GUARD_MS).
 */
export async function handedOn(taskId: string): Promise<void> {
  const deadline = Date.now() + SETTLE_GUARD_MS;
  while ((await intakeRow(taskId))?.due_at !== null) {
    if (Date.now() > deadline) throw new Error(`the intake shard never handed task ${taskId} on (${SETTLE_GUARD_MS} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The intake shards, except that each delivery is stored and its shard's alarm taken away in one
 * step (nothing else runs in the object in between), so nothing is handed on until the test calls
 * `handOn`. For `durableTaskService(env, agents, heldIntake)`. A file that holds shards has storage
 * of its own (vitest.config.ts OWN_STORAGE): another file's delivery would re-arm a shard it holds.
 */
export const heldIntake: DeliveryIntake = {
  accept: (taskId, entry) =>
    runInDurableObject(intakeStub(env, taskId), async (shard, state) => {
      const answer = await shard.accept(taskId, entry);
      await state.storage.deleteAlarm();
      return answer;
    }),
};

/** Runs the alarm of `taskId`'s shard now, as the runtime would: it hands on every delivery due there. */
export function handOn(taskId: string): Promise<void> {
  return runInDurableObject(intakeStub(env, taskId), (shard) => shard.alarm());
}
