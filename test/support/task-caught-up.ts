/**
 * A finished task's end, awaited by its cause: its status is stored first and the callers waiting
 * for it answered, then its report (a check run, a Slack reply) is sent and its index told
 * (durable-objects/task-outcome). A test that reads what the report or the index did waits until
 * the object owes neither, read from its own storage, never a clock.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { outcomeOwed } from '../../durable-objects/task-outcome.ts';

/** Resolves once the finished task `id` owes nothing; throws after `timeoutMs` (a hang's guard only). */
export async function caughtUp(id: string, timeoutMs: number): Promise<void> {
  const stub = env.TASKS.get(env.TASKS.idFromString(id));
  const deadline = Date.now() + timeoutMs;
  while (await runInDurableObject(stub, (_, state) => outcomeOwed(state.storage.sql))) {
    if (Date.now() > deadline) throw new Error(`task ${id} still owes its report or a listing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
