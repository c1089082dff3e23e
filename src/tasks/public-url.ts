/**
 * @module tasks/public-url
 * Where this service is reached, for links it hands out. `PUBLIC_URL` when it is set; otherwise
 * the origin of the request being answered. Check runs and Slack replies are posted later, from
 * the task's own object, with no request at hand, so a task remembers the origin of the request
 * that created it (a webhook or command reaches the Worker at its public host).
 */
import type { TaskRequestInput } from './task-request.ts';
import type { TaskService } from './task-service.ts';

/** The origin links are built on: the configured one, else the request's. */
export function publicOrigin(configured: string | undefined, requestUrl: string): string {
  return configured ?? new URL(requestUrl).origin;
}

/**
 * The same task service, stamping every task it creates with the origin it was reached at.
 *
 * @example
 * const tasks = stampPublicUrl(deps.tasks(c.env), new URL(c.req.url).origin);
 */
export function stampPublicUrl(service: TaskService, origin: string): TaskService {
  return { ...service, create: (request: TaskRequestInput, options) => service.create({ ...request, publicUrl: origin }, options) };
}
