/**
 * @module providers/rules/rules-memo
 * The rules gathered at one snapshot, kept with that snapshot object (gone with it) under
 * everything the gathering depends on, and each gathering's resolution for a client, kept with
 * that gathering. A pull request's turn 0 gathers and resolves its rules in the rules provider (as
 * no client in particular: a webhook's task names none), and the check run's rules report that
 * follows asks the very snapshot (durable-objects/task-rules `pinned`) for the same working
 * directory, focus, settings and client: it takes what was gathered and resolved rather than
 * listing, reading and resolving the same files again (issue 56: the resolution was 0.5 to 4 ms
 * of the report's time after GitHub's last answer on local workerd, traced under perf). The agent counts only through
 * Copilot's agent kind, and only when a file's `excludeAgent` named one (the report asks as no
 * agent in particular, turn 0 as the reviewer). Only a gathering or a resolution that completed is
 * kept, and it is shared: no caller changes it (pieces withImports copies a piece it adds a warning
 * to; the matrix maps the verdicts into new objects, and the runner copies a provider's verdicts
 * before it settles them: context/answer-checks-by-hand, rule-verdict `settleVerdicts`).
 */
import { clientLabel, type ClientRef } from '../../context/client.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { ResolvedRules } from './build-rules.ts';
import { agentKindOf } from './format-rules.ts';
import type { Gathered, RuleSetInput } from './rule-set.ts';

const gatherings = new WeakMap<Snapshot, Map<string, Gathered>>();
const resolutions = new WeakMap<Gathered, Map<string, ResolvedRules>>();

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

/**
 * What `resolve` answered for this gathering, client and listing before, else its answer, kept.
 * The gathering holds the snapshot, working directory and settings it was made for (its key
 * above), so the client and whether loaded files are listed are all a resolution adds.
 */
export async function keptResolution(gathered: Gathered, client: ClientRef, listLoaded: boolean, resolve: () => Promise<ResolvedRules>): Promise<ResolvedRules> {
  const byKey = resolutions.get(gathered) ?? new Map<string, ResolvedRules>();
  resolutions.set(gathered, byKey);
  const key = `${clientLabel(client)} ${listLoaded}`;
  const known = byKey.get(key);
  if (known) return known;
  const resolved = await resolve();
  byKey.set(key, resolved);
  return resolved;
}
