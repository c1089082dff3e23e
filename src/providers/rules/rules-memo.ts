/**
 * @module providers/rules/rules-memo
 * The rules gathered and resolved at one snapshot, kept with that snapshot object (gone with it)
 * under everything the answer depends on. A pull request's turn 0 gathers its rules in the rules
 * provider, and the check run's rules report that follows asks the very snapshot
 * (durable-objects/task-rules `pinned`) for the same working directory, focus and settings: it
 * takes that answer rather than reading and resolving the same files again (issue 56). Only an
 * answer that completed is kept, and the kept objects are shared: no caller changes them.
 */
import type { ClientRef } from '../../context/client.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { ResolvedRules } from './build-rules.ts';
import type { Gathered, RuleSetInput } from './rule-set.ts';

const kept = new WeakMap<Snapshot, Map<string, { gathered: Gathered; resolved: Map<string, ResolvedRules> }>>();

/** What a gathering reads depends on (the agent only through whether the settings call it a reviewer). */
export function gatherKey({ task, focusFiles, config }: Pick<RuleSetInput, 'task' | 'focusFiles' | 'config'>): string {
  return JSON.stringify([task.cwd, task.focusPaths, focusFiles ?? [], config, config.reviewAgents.includes(task.agent)]);
}

export function keptGathering(snapshot: Snapshot, key: string): Gathered | undefined {
  return kept.get(snapshot)?.get(key)?.gathered;
}

export function keepGathering(snapshot: Snapshot, key: string, gathered: Gathered): void {
  const byKey = kept.get(snapshot) ?? new Map();
  kept.set(snapshot, byKey);
  byKey.set(key, { gathered, resolved: new Map() });
}

/** The resolution of a kept gathering for a client, as `resolve` answered it. */
export async function keptResolution(snapshot: Snapshot, key: string, gathered: Gathered, client: ClientRef, listLoaded: boolean, compute: () => Promise<ResolvedRules>): Promise<ResolvedRules> {
  const entry = kept.get(snapshot)?.get(key);
  if (entry?.gathered !== gathered) return compute();
  const as = JSON.stringify([client.name, client.version, client.variant, listLoaded]);
  const known = entry.resolved.get(as);
  if (known) return known;
  const resolved = await compute();
  entry.resolved.set(as, resolved);
  return resolved;
}
