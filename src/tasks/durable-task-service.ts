/**
 * @module tasks/durable-task-service
 * The TaskService backed by one Task Durable Object per task. With an idempotency key (a
 * trigger's delivery) the object id is derived from the key, so every repeat of a delivery names
 * the same object, and the delivery is stored in its intake shard (task-intake), which creates the
 * task in that object after the answer. The agent configuration is resolved here, from this deployment's
 * catalog, and handed to the object with the request (see task-agent).
 */
import type { AgentCatalog } from '../context/agent-catalog.ts';
import { getAgents } from '../env.ts';
import { ApiError } from '../http/errors.ts';
import type { TaskService } from './task-service.ts';
import { parseWith } from '../http/validate.ts';
import { taskAgent } from './task-agent.ts';
import { shardIntake, type DeliveryIntake } from './task-intake.ts';
import type { IntakeEntry } from '../../durable-objects/intake-entry.ts';
import { TaskRequestSchema } from './task-request.ts';
import { MailboxResultSchema } from './task-results.ts';

/**
 * `agents`: the deployment's catalog (agents.json over the built-ins) unless told otherwise.
 * `intake`: where deliveries are stored, the intake shards unless told otherwise (a test holds them).
 */
export function durableTaskService(env: Env, agents: AgentCatalog = getAgents(), intake: DeliveryIntake = shardIntake(env)): TaskService {
  return {
    async create(input, options) {
      // A trigger that maps an event to a bad request is answered 400 naming the field, not 500.
      const request = parseWith(TaskRequestSchema, input);
      const agent = taskAgent(agents, request);
      if (!agent.ok) throw new ApiError('bad_request', `${agent.field}: ${agent.message}`);
      const key = options?.idempotencyKey;
      if (!key) return env.TASKS.get(env.TASKS.newUniqueId()).create(request, agent.agent, { indexReport: 'now' });
      // A keyed create is a trigger's delivery: its sender waits for the answer, the indexes need
      // not, and neither does the Task object, which the delivery's intake shard creates next.
      const id = env.TASKS.idFromName(key);
      const entry = {
        request,
        agent: agent.agent,
        options: { indexReport: 'with-assembly' as const, ...(options?.pullRequest ? { pullRequestEntry: { pullRequest: options.pullRequest, delivery: key } } : {}) },
      };
      const taskId = id.toString();
      const answer = await intake.accept(taskId, JSON.stringify(entry satisfies IntakeEntry));
      if (answer !== 'forwarded') return { id: taskId, status: 'pending', created: answer === 'accepted' };
      // A redelivery of a task its object already has: the object knows its status (and creates
      // nothing, or, if the task outlived its retention, starts it again as a first delivery would).
      return env.TASKS.get(id).create(entry.request, entry.agent, entry.options);
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
