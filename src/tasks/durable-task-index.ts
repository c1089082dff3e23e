/**
 * @module tasks/durable-task-index
 * The task index Durable Object of each tenant (one per tenant name), and a page of tasks over
 * the indexes of several tenants.
 */
import { listTaskPage, TaskIndexRowSchema, type TaskIndexQuery, type TaskPage } from './task-index.ts';

export function taskIndexStub(env: Env, tenant: string): DurableObjectStub<import('../../durable-objects/task-index.ts').TaskIndex> {
  return env.TASK_INDEX.get(env.TASK_INDEX.idFromName(`tenant:${tenant}`));
}

/** Newest first over `tenants` (a tenant and those it was granted). */
export function listTenantTasks(env: Env, tenants: readonly string[], query: TaskIndexQuery): Promise<TaskPage> {
  return listTaskPage(tenants, query, async (tenant, one) => TaskIndexRowSchema.array().parse(await taskIndexStub(env, tenant).list(one)));
}
