/**
 * @module triggers/github/dispatch
 * A verified, parsed delivery -> its effect: a task created through the TaskService (or a
 * follow-up in an existing task's mailbox, see follow-ups), the tenant's repository list
 * updated, or the reason nothing happened. HTTP stays in the route.
 */
import { sha256Hex } from '../../lib/sha256.ts';
import type { PullRequestIndex } from '../../tasks/pull-request-index.ts';
import type { TaskService } from '../../tasks/task-service.ts';
import type { DeliveryResult } from './delivery-result.ts';
import type { GitHubEvent } from './events.ts';
import { routeComment, startReview } from './follow-ups.ts';
import { applyInstallationEvent, applyRepositoriesEvent } from './installations.ts';
import { acceptComment, mapPullRequest } from './map-event.ts';
import type { PullRequestLookup } from './pull-request.ts';

export type { DeliveryResult } from './delivery-result.ts';

export interface DispatchDeps {
  tasks: TaskService;
  pullRequests: PullRequestIndex;
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
    case 'pull_request': {
      const mapped = mapPullRequest(event.payload);
      if ('ignored' in mapped) return { kind: 'ignored', reason: mapped.ignored };
      return startReview(event.payload, mapped.task, signedKey, deps);
    }
    case 'issue_comment': {
      const accepted = acceptComment(event.payload, deps.appHandle);
      if ('ignored' in accepted) return { kind: 'ignored', reason: accepted.ignored };
      return routeComment(accepted.comment, signedKey, deps);
    }
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

function installationResult(outcome: Awaited<ReturnType<typeof applyInstallationEvent>>): DeliveryResult {
  return 'ignored' in outcome ? { kind: 'ignored', reason: outcome.ignored } : { kind: 'installation', ...outcome };
}
