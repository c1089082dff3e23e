/**
 * @module triggers/github/dispatch
 * A verified, parsed delivery -> its effect: a task created through the TaskService, the
 * tenant's repository list updated, or the reason nothing happened. HTTP stays in the route.
 */
import type { TaskService, TaskStatus } from '../../tasks/task-request.ts';
import type { GitHubEvent } from './events.ts';
import { applyInstallationEvent, applyRepositoriesEvent } from './installations.ts';
import { mapIssueComment, mapPullRequest } from './map-event.ts';
import type { MapResult } from './map-event.ts';
import type { PullRequestLookup } from './pull-request.ts';

export type DeliveryResult =
  | { kind: 'task'; taskId: string; status: TaskStatus; duplicate: boolean }
  | { kind: 'installation'; installationId: number; action: string; repositories: number }
  | { kind: 'ignored'; reason: string };

export interface DispatchDeps {
  tasks: TaskService;
  tenants: KVNamespace;
  appHandle: string;
  lookup: PullRequestLookup;
  now(): number;
}

/**
 * `deliveryId` becomes the task's idempotency key, so a redelivery of the same event returns
 * the first task and schedules no second assembly.
 */
export async function dispatchDelivery(event: GitHubEvent, deliveryId: string, deps: DispatchDeps): Promise<DeliveryResult> {
  switch (event.name) {
    case 'pull_request':
      return createTask(mapPullRequest(event.payload), deliveryId, deps.tasks);
    case 'issue_comment':
      return createTask(await mapIssueComment(event.payload, { appHandle: deps.appHandle, lookup: deps.lookup }), deliveryId, deps.tasks);
    case 'installation':
      return installationResult(await applyInstallationEvent(deps.tenants, event.payload, new Date(deps.now())));
    case 'installation_repositories':
      return installationResult(await applyRepositoriesEvent(deps.tenants, event.payload, new Date(deps.now())));
    case 'unhandled':
      return { kind: 'ignored', reason: `event "${event.event}" is not handled` };
  }
}

async function createTask(mapped: MapResult, deliveryId: string, tasks: TaskService): Promise<DeliveryResult> {
  if ('ignored' in mapped) return { kind: 'ignored', reason: mapped.ignored };
  const created = await tasks.create(mapped.task, { idempotencyKey: `github-delivery:${deliveryId}` });
  return { kind: 'task', taskId: created.id, status: created.status, duplicate: !created.created };
}

function installationResult(outcome: Awaited<ReturnType<typeof applyInstallationEvent>>): DeliveryResult {
  return 'ignored' in outcome ? { kind: 'ignored', reason: outcome.ignored } : { kind: 'installation', ...outcome };
}
