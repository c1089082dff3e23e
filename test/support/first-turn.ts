/**
 * @module test/support/first-turn
 * A task created through the real Worker, waited for until its Task object assembled turn 0, and
 * that turn read back through the API.
 */
import { expect } from 'vitest';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from './api.ts';

export async function firstTurn(body: Record<string, unknown>): Promise<{ id: string; turn: AssembledTurn }> {
  const created = await api('POST', '/tasks', { body });
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  const id = String(created.json['id']);
  const task = TaskDescriptionSchema.parse(await waitForTask(id, settled, 20_000));
  expect(task.status, task.reason ?? '').toBe('ready');
  const read = await api('GET', `/tasks/${id}/turns/0`);
  return { id, turn: AssembledTurnSchema.parse(read.json) };
}
