/**
 * @module providers/rules/rules-memo
 * The rules gathered at one snapshot, kept with that snapshot object (gone with it) under
 * everything the gathering depends on. A pull request's turn 0 gathers its rules in the rules
 * provider, and the check run's rules report that follows asks the very snapshot
 * (durable-objects/task-rules `pinned`) for the same working directory, focus and settings: it
 * takes what was gathered rather than listing and reading the same files again (issue 56), and
 * resolves it for its own clients. The agent counts only through Copilot's agent kind, and only
 * when a file's `excludeAgent` named one (the report asks as no agent in particular, turn 0 as
 * the reviewer). Only a gathering that completed is kept, and it is shared:
 * no caller changes it (pieces withImports copies a piece it adds a warning to).
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { agentKindOf } from './format-rules.ts';
import type { Gathered, RuleSetInput } from './rule-set.ts';

const gatherings = new WeakMap<Snapshot, Map<string, Gathered>>();

/** What `gather` answered for the same input at this snapshot, else its answer, kept. */
export async function keptGathering(snapshot: Snapshot, input: RuleSetInput, gather: () => Promise<Gathered>): Promise<Gathered> {
  const byKey = gatherings.get(snapshot) ?? new Map<string, Gathered>();
  gatherings.set(snapshot, byKey);
  // What gathering depends on; the agent only through its kind, and only when a file named one.
  const { task, focusFiles, config } = input;
  const key = JSON.stringify([task.cwd, task.focusPaths, focusFiles ?? [], config]);
  const known = byKey.get(key);
  if (known && (known.agentKind === undefined || known.agentKind === agentKindOf(config, task.agent))) return known;
  const gathered = await gather();
  byKey.set(key, gathered);
  return gathered;
}
