/**
 * @module durable-objects/task-inspection
 * What a Task object answers for its inspector page: who may see it (the owning tenant, a
 * tenant granted the owner, or a signed link to this task), then every stored turn with its
 * provenance and the transcript in order.
 */
import type { Inspection, InspectedTurn, InspectResult } from '../src/tasks/inspection.ts';
import { checkViewLink, type ViewLinkSecrets } from '../src/tasks/view-link.ts';
import type { TaskStore } from './task-store.ts';

type Refused = Extract<InspectResult, { status: 'forbidden' }>;

/** Why a link with `exp` and `sig` does not open the task `taskId` now; nothing when it does. */
export async function linkRefusal(secrets: ViewLinkSecrets, taskId: string, link: { exp: string; sig: string }, nowMs: number): Promise<Refused | undefined> {
  const check = await checkViewLink(secrets, taskId, link.exp, link.sig, nowMs);
  if (check.ok) return undefined;
  return check.reason === 'expired' ? { status: 'forbidden', reason: 'expired', expiredAt: check.expiredAt.toISOString() } : { status: 'forbidden', reason: check.reason };
}

export function inspectTask(store: TaskStore, task: Inspection['task']): Inspection {
  const usages = store.usages();
  const turns = store.turns().map(
    (record): InspectedTurn => ({
      turn: record.turn,
      digest: record.digest,
      chars: record.chars,
      tokens: record.tokens,
      agent: record.agent,
      ...(record.agentHash ? { agentHash: record.agentHash } : {}),
      ...(record.client ? { client: record.client } : {}),
      commit: record.commit,
      repository: record.repository,
      createdAt: new Date(record.createdAt).toISOString(),
      hostItemId: record.item?.id ?? null,
      system: record.system.map((message) => message.content),
      tools: record.tools,
      providers: record.providers,
      entries: record.entries,
      ...(record.settings ? { settings: record.settings } : {}),
      ...(record.github ? { github: record.github } : {}),
      ...(usages.has(record.turn) ? { usage: usages.get(record.turn) } : {}),
    }),
  );
  return { task, turns, transcript: store.timeline() };
}
