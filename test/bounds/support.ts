/**
 * @module test/bounds/support
 * Driving a task through its bounded attempts: the first fires by itself, the retries are run
 * at once instead of after their backoff. And what every bounded failure must look like: the
 * deadline named with the step in progress, and an API that kept answering meanwhile.
 */
import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import { TaskDescriptionSchema, type TaskDescription } from '../../src/tasks/task-results.ts';
import { api, waitForTask } from '../support/api.ts';
import { BOUNDS_ASSEMBLY_TIMEOUT_MS } from './bindings.ts';

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

/** The reason of an attempt that reached its deadline during `step`. */
export const overdue = (step: string): string => `turn 0 was not assembled within ${BOUNDS_ASSEMBLY_TIMEOUT_MS} ms (ASSEMBLY_TIMEOUT_MS): still ${step}`;

export async function createTask(body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/tasks', { body: { request: 'Explain the build.', ...body } });
  expect(created.status).toBe(202);
  return String(created.json['id']);
}

/**
 * While the task's first attempt waits on its remote, its own object and the Worker answer, and
 * beginning turn 0 joins that attempt and is answered when the deadline ends it: a 409 with
 * `reason`. Then the task is waiting to retry, saying why.
 */
export async function expectAnswersWhileWaiting(id: string, reason: string): Promise<void> {
  await waitForTask(id, (task) => task.status === 'assembling');
  expect((await api('GET', '/health')).status).toBe(200);
  const begun = await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } });
  expect(begun.status).toBe(409);
  expect(begun.json.error?.message).toBe(`turn 0 could not be assembled: ${reason}`);
  const retrying = await describeTask(id);
  expect(retrying.status).toBe('pending');
  expect(retrying.reason).toMatch(new RegExp(`^attempt [12] failed: ${escapeRegExp(reason)}; retrying in [24] s$`));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
