/**
 * @module providers/freshness/provider
 * Later turns learn when what they were given went stale. On turn n > 0 the provider re-resolves
 * what the task was pinned from (the branch or tag it named; a pull request's base as it is now
 * and its head; else the default branch) and, when that moved, compares every source that
 * reached the model on earlier turns between the commit it knows them at and the new one, by
 * blob id. Something changed, was deleted or could not be compared: one `volatile` notice
 * naming each source. Nothing moved, or nothing the model relies on changed: no entry, so the
 * turn appends no item. Turn 0 has nothing to compare.
 *
 * What the model was last told is read back from its own earlier notices in `history` (their
 * `source.revision` is the commit or head they announced), so a move is announced once, and a
 * later move is compared from there. A check that cannot be made is announced every turn until
 * it can: the model must not take silence for "still current".
 *
 * @example
 * // turn 1, after a push that changed AGENTS.md on main:
 * // main moved 1a2b3c4 -> 5d6e7f8 since your context was read at 1a2b3c4.
 * // - AGENTS.md: changed (blob 0f1e2d3 -> 4c5b6a7)
 * // - services/auth/AGENTS.md: unchanged
 * // Re-read the changed sources at 5d6e7f8 before acting on them; deleted sources no longer apply.
 */
import type { Built } from '../../lib/lazy-schema.ts';
import type { EntryInput } from '../../context/entry.ts';
import { defineProvider, type EarlierEntry, type Provider } from '../../context/provider.ts';
import { countTokens } from '../../context/tokens.ts';
import { inspectFreshness, pinnedFrom, uncheckedReport } from '../../freshness/check.ts';
import { short } from '../../freshness/compare.ts';
import { describeHeadMove, describeHeadUnchecked, describeMove, describeUnchecked, somethingChanged } from '../../freshness/describe.ts';
import type { FreshnessReport } from '../../freshness/report.ts';
import { trackedSources } from '../../freshness/tracked.ts';
import { addedRules } from './added-rules.ts';
import { type FreshnessConfigSchema, freshnessSettings } from './settings.ts';

/** Source URIs of the provider's own notices; their revision is what they announced. */
export const FRESHNESS_URI = 'groundwork:freshness';
export const HEAD_URI = 'groundwork:freshness/pull-request-head';

export interface FreshnessProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export function createFreshnessProvider(options: FreshnessProviderOptions = {}): Provider<Built<typeof FreshnessConfigSchema>> {
  return defineProvider({
    ...freshnessSettings(),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    // Without the repository it has nothing to compare, and says so when the model was given
    // sources; a pull request's head and current base come from GitHub, and without GitHub the
    // base branch is still checked. Neither is required: freshness reads nothing on turn 0, so it
    // must not count as the turn's repository reader (see the Task object's assembler).
    requires: [],
    uses: ['repo:read', 'github:api'],
    turns: 'all',
    timeoutMs: options.timeoutMs ?? 8_000,
    // Its own deadline makes a check that cannot reach the remote a notice of its own; this is
    // for the provider itself failing, outrunning its timeout or not fitting the budget.
    missing: {
      subject: 'Whether the repository sources you were given are still current',
      plural: false,
      failed: 'could not be checked',
      claim: 'Do not assume they are current; re-read the rules, skills and files you rely on before acting.',
    },
    async run({ turn, task, source, snapshot, history, github, ruleSets, withheld, config, budget, signal, now }) {
      if (turn === 0) return { entries: [], notes: ['turn 0: nothing to compare yet'] };
      const sources = trackedSources(history);
      const pullRequest = github && task.pullRequest ? { github, number: task.pullRequest.number } : undefined;
      const ref = pinnedFrom(task);
      // With a rule set to compare, a task the repository gave nothing yet is still checked: a rule file may have appeared.
      if ((sources.length === 0 && !ruleSets && !pullRequest) || task.commit === undefined) return { entries: [], notes: [quietNote(undefined, 0)] };
      const told = lastTold(history);
      const headKnown = told.head ?? task.headCommit;
      const input = {
        commit: task.commit,
        ...(ref === undefined ? {} : { ref }),
        ...(told.base === undefined ? {} : { since: told.base }),
        sources,
        ...(pullRequest ? { pullRequest: { ...pullRequest, ...(headKnown === undefined ? {} : { head: headKnown }) } } : {}),
        signal,
        now,
      };
      const checked = source
        ? await inspectFreshness({ ...input, source, ...(snapshot ? { pinned: snapshot } : {}), ...(ruleSets ? { ruleSets } : {}), deadlineMs: config.deadlineMs })
        : { report: uncheckedReport(input, `the repository could not be read (${withheld['repo:read'] ?? 'repo:read was not granted'})`) };
      const { report, head } = checked;
      const notices = [...baseEntries(report, sources.length, told.base === undefined, config.maxUnchanged), ...headEntries(report)];
      const used = notices.reduce((sum, entry) => sum + countTokens(entry.body), 0);
      // What now applies and did not, read at the new head, after the notice that says why.
      const added = head && report.ruleSet?.status === 'changed' && notices.length > 0 ? await addedRules({ head, changes: report.ruleSet.changes, history, budget: Math.max(0, budget - used), signal }) : { entries: [], notes: [] };
      const entries = [...notices, ...added.entries];
      return { entries, notes: entries.length === 0 ? [quietNote(report, sources.length)] : added.notes };
    },
  });
}

/** The base commit and pull request head the model was last told about, from the provider's own notices. */
function lastTold(history: readonly EarlierEntry[]): { base?: string; head?: string } {
  const told: { base?: string; head?: string } = {};
  for (const entry of history) {
    if (entry.source.revision === undefined) continue;
    if (entry.source.uri === FRESHNESS_URI) told.base = entry.source.revision;
    if (entry.source.uri === HEAD_URI) told.head = entry.source.revision;
  }
  return told;
}

function baseEntries(report: FreshnessReport, tracked: number, firstNotice: boolean, maxUnchanged: number): EntryInput[] {
  if (tracked === 0 && !report.ruleSet) return [];
  if (report.current === null) {
    return [notice(`Freshness: could not check ${report.ref}`, describeUnchecked(report), { uri: FRESHNESS_URI })];
  }
  if (!report.moved || (!somethingChanged(report) && report.ruleSet?.status !== 'unverifiable')) return [];
  return [notice(`Freshness: ${report.ref} moved`, describeMove(report, { firstNotice, maxUnchanged }), { uri: FRESHNESS_URI, revision: report.current })];
}

function headEntries(report: FreshnessReport): EntryInput[] {
  const pull = report.pullRequest;
  if (!pull) return [];
  const title = `Freshness: pull request #${pull.number} head`;
  if (pull.reason !== undefined) return [notice(title, describeHeadUnchecked(pull.number, pull.reason), { uri: HEAD_URI })];
  if (pull.headMoved !== true || pull.head === null || pull.currentHead === null) return [];
  return [notice(title, describeHeadMove(pull.number, pull.head, pull.currentHead), { uri: HEAD_URI, revision: pull.currentHead })];
}

function notice(title: string, body: string, source: EntryInput['source']): EntryInput {
  return { title, body, source, freshness: 'volatile', stability: 'task' };
}

/** Why a later turn got no notice, for the outcome's reason. */
function quietNote(report: FreshnessReport | undefined, tracked: number): string {
  if (!report || (tracked === 0 && !report.ruleSet)) return 'no repository source reached the model on earlier turns';
  if (!report.moved) return `${report.ref} has not moved from ${short(report.commit)}`;
  const rules = report.ruleSet ? ' and the rules that apply are the same' : '';
  return `${report.ref} moved ${short(report.commit)} -> ${short(report.current ?? '')}; none of the ${tracked} sources the model was given changed${rules}`;
}
