/**
 * @module freshness/rule-set-check
 * The rule set of the task at the commit compared from and at the new head (the host's
 * `RuleSetReader`, which runs the providers' own computation at each), diffed (rule-set-diff).
 * Both sides read through the snapshots the sources' comparison uses, so the new head's tree is
 * listed once for both. A side that could not be computed makes the check `unverifiable` with
 * the reason: a rule set that is not known is never an unchanged one.
 */
import type { RuleSetReader } from '../context/rule-set.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { lookupBlob } from './lookup.ts';
import type { RuleSetCheck } from './report.ts';
import { diffRuleSets } from './rule-set-diff.ts';
import type { TrackedSource } from './tracked.ts';

export const UNCHANGED_RULE_SET: RuleSetCheck = { status: 'unchanged', changes: [] };

export async function compareRuleSets(reader: RuleSetReader, pair: { before: Snapshot; after: Snapshot; signal: AbortSignal }, tracked: readonly TrackedSource[], client?: string): Promise<RuleSetCheck> {
  const { before, after, signal } = pair;
  const named = client === undefined ? {} : { client };
  const [was, now] = await Promise.all([reader.at(before, signal), reader.at(after, signal)]);
  if (was.status === 'failed') return { status: 'unverifiable', reason: `the rule set at ${before.commit.slice(0, 7)} could not be computed: ${was.reason}`, changes: [] };
  if (now.status === 'failed') return { status: 'unverifiable', reason: `the rule set at ${after.commit.slice(0, 7)} could not be computed: ${now.reason}`, changes: [] };
  try {
    const changes = await diffRuleSets({
      before: was.ruleSet,
      after: now.ruleSet,
      lookup: (side, path) => lookupBlob(side === 'before' ? before : after, path, signal),
      given: new Set(tracked.filter((source) => source.kind === 'file').map((source) => source.path)),
      watchedSkillRoots: tracked.filter((source) => source.kind === 'skills-index').map((source) => source.path),
      ...(client === undefined ? {} : { client }),
    });
    return changes.length === 0 ? { ...UNCHANGED_RULE_SET, ...named } : { status: 'changed', ...named, changes };
  } catch (error) {
    signal.throwIfAborted();
    return { status: 'unverifiable', reason: `the rule sets could not be compared: ${error instanceof Error ? error.message : String(error)}`, changes: [] };
  }
}
