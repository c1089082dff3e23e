/**
 * @module tasks/durable-task-service
 * The TaskService backed by one Task Durable Object per task. With an idempotency key the object
 * id is derived from the key, so every repeat of a delivery reaches the same object, which
 * creates the task once.
 */
import type { TaskService } from './task-request.ts';
import { parseWith } from '../http/validate.ts';
import { TaskRequestSchema } from './task-request.ts';
import { MailboxResultSchema } from './task-results.ts';

export function durableTaskService(env: Env): TaskService {
  return {
    async create(input, options) {
      // A trigger that maps an event to a bad request is answered 400 naming the field, not 500.
      const request = parseWith(TaskRequestSchema, input);
      const id = options?.idempotencyKey ? env.TASKS.idFromName(options.idempotencyKey) : env.TASKS.newUniqueId();
      // A keyed create is a trigger's delivery: its sender waits for the answer, the index need not.
      return env.TASKS.get(id).create(request, { indexReport: options?.idempotencyKey ? 'with-assembly' : 'now' });
    },
    async amend(taskId, tenant, post) {
      const stub = taskStub(env, taskId);
      if (!stub) return { status: 'not-found' };
      return MailboxResultSchema.parse(await stub.mailbox(tenant, post));
    },
  };
}

/** The stub of an existing task id, or undefined when the id is not one of ours. */
export function taskStub(env: Env, id: string): DurableObjectStub<import('../../durable-objects/task.ts').TaskObject> | undefined {
  if (!/^[0-9a-f]{64}$/.test(id)) return undefined;
  try {
    return env.TASKS.get(env.TASKS.idFromString(id));
  } catch {
    return undefined;
  }
}
