/**
 * @module triggers/github/dispatch
 * A verified, parsed delivery -> its effect: a task created through the TaskService, the
 * tenant's repository list updated, or the reason nothing happened. HTTP stays in the route.
 */
import { sha256Hex } from '../../lib/sha256.ts';
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
 * `signedKey` names the delivery by what its signature covers (see {@link signedDeliveryKey}) and
 * becomes the task's idempotency key: a redelivery, and a captured body replayed under a new
 * `X-GitHub-Delivery`, return the first task and schedule no second assembly.
 */
export async function dispatchDelivery(event: GitHubEvent, signedKey: string, deps: DispatchDeps): Promise<DeliveryResult> {
  switch (event.name) {
    case 'pull_request':
      return createTask(mapPullRequest(event.payload), signedKey, deps.tasks);
    case 'issue_comment':
      return createTask(await mapIssueComment(event.payload, { appHandle: deps.appHandle, lookup: deps.lookup }), signedKey, deps.tasks);
    case 'installation':
      return installationResult(await applyInstallationEvent(deps.tenants, event.payload, new Date(deps.now())));
    case 'installation_repositories':
      return installationResult(await applyRepositoriesEvent(deps.tenants, event.payload, new Date(deps.now())));
    case 'unhandled':
      return { kind: 'ignored', reason: `event "${event.event}" is not handled` };
  }
}

/**
 * The event name and the SHA-256 of the signed body. The delivery id is not signed, so keying on
 * it alone let a captured body start a new task under every fresh id; GitHub redelivers an event
 * with the same body, so a redelivery keeps mapping to its first task.
 *
 * @example
 * await signedDeliveryKey('pull_request', body) // 'github-event:pull_request:9f86d0…'
 */
export async function signedDeliveryKey(event: string, body: Uint8Array<ArrayBuffer>): Promise<string> {
  return `github-event:${event}:${await sha256Hex(body)}`;
}

async function createTask(mapped: MapResult, signedKey: string, tasks: TaskService): Promise<DeliveryResult> {
  if ('ignored' in mapped) return { kind: 'ignored', reason: mapped.ignored };
  const created = await tasks.create(mapped.task, { idempotencyKey: signedKey });
  return { kind: 'task', taskId: created.id, status: created.status, duplicate: !created.created };
}

function installationResult(outcome: Awaited<ReturnType<typeof applyInstallationEvent>>): DeliveryResult {
  return 'ignored' in outcome ? { kind: 'ignored', reason: outcome.ignored } : { kind: 'installation', ...outcome };
}
