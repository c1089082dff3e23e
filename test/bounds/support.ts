/**
 * @module test/bounds/support
 * Driving a task through its bounded attempts: the first fires by itself, the retries are run
 * at once instead of after their backoff.
 */
import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { TaskDescriptionSchema, type TaskDescription } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';

export const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

export async function describeTask(id: string): Promise<TaskDescription> {
  return TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
}

/** Runs the scheduled retries until the task is `ready` or `failed`; never more than `limit` alarms. */
export async function runRetries(id: string, limit = 3): Promise<TaskDescription> {
  for (let i = 0; i < limit; i++) {
    const task = await describeTask(id);
    if (task.status === 'ready' || task.status === 'failed') return task;
    await runDurableObjectAlarm(stubOf(id));
  }
  return describeTask(id);
}

/** What the object has scheduled next, in ms since the epoch. */
export function scheduledAlarm(id: string): Promise<number | null> {
  return runInDurableObject(stubOf(id), (_, state) => state.storage.getAlarm());
}
