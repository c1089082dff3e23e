/**
 * @module freshness/describe
 * A freshness report in words, for the model (the freshness provider's notice) and for people
 * (the CLI). Deterministic: the same report gives the same text, and no clock or duration is
 * written, so a repeated check of the same state renders the same bytes.
 */
import { short } from './compare.ts';
import type { FreshnessReport, RuleSetCheck, SourceCheck } from './report.ts';
import { sourceLabel } from './tracked.ts';

const ORDER: Record<SourceCheck['status'], number> = { changed: 0, deleted: 1, unverifiable: 2, unchanged: 3 };

/**
 * Every line of a report: how the rule set changed (or why it could not be compared), then the
 * sources (see `sourceLines`), leaving out the sources a rule-set line already names (a given
 * `src/AGENTS.md` that `src/AGENTS.override.md` now replaces is one change, said once).
 */
export function reportLines(report: Pick<FreshnessReport, 'sources' | 'ruleSet'>, maxUnchanged: number): string[] {
  const named = new Set((report.ruleSet?.changes ?? []).flatMap((change) => [change.path, ...(change.from === undefined ? [] : [change.from])]));
  return [...ruleSetLines(report.ruleSet), ...sourceLines(report.sources.filter((check) => check.kind !== 'file' || !named.has(check.path)), maxUnchanged)];
}

export function ruleSetLines(check: RuleSetCheck | undefined): string[] {
  if (!check) return [];
  if (check.status === 'unverifiable') return [`- the rules that apply could not be compared (${check.reason ?? 'no reason given'})`];
  return check.changes.map((change) => `- ${change.line}`);
}

/** Whether the report names anything that changed: a source not unchanged, or the rule set. */
export function somethingChanged(report: Pick<FreshnessReport, 'sources' | 'ruleSet'>): boolean {
  return report.ruleSet?.status === 'changed' || report.sources.some((check) => check.status !== 'unchanged');
}

/** Changed, deleted and unverifiable sources first, then up to `maxUnchanged` unchanged ones, in path order inside each. */
export function sourceLines(sources: readonly SourceCheck[], maxUnchanged: number): string[] {
  const sorted = [...sources].sort((a, b) => ORDER[a.status] - ORDER[b.status] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const unchanged = sorted.filter((check) => check.status === 'unchanged');
  const lines = sorted.filter((check) => check.status !== 'unchanged').map((check) => `- ${sourceLine(check)}`);
  lines.push(...unchanged.slice(0, maxUnchanged).map((check) => `- ${sourceLine(check)}`));
  if (unchanged.length > maxUnchanged) lines.push(`- +${unchanged.length - maxUnchanged} more unchanged`);
  return lines;
}

export function sourceLine(check: SourceCheck): string {
  const label = sourceLabel(check);
  switch (check.status) {
    case 'changed': {
      if (check.kind === 'skills-index') return `${label}: changed: ${(check.changes ?? []).join(', ')}`;
      const blobs = check.blob === null ? `now blob ${short(check.currentBlob ?? '')}` : `blob ${short(check.blob)} -> ${short(check.currentBlob ?? '')}`;
      return `${label}: changed (${blobs})`;
    }
    case 'deleted':
      return `${label}: deleted${check.reason ? ` (${check.reason})` : ''}`;
    case 'unverifiable':
      return `${label}: could not be compared (${check.reason ?? 'no reason given'})`;
    case 'unchanged':
      return `${label}: unchanged`;
  }
}

/** The notice for a moved ref with at least one source that is not unchanged. */
export function describeMove(report: FreshnessReport, options: { firstNotice: boolean; maxUnchanged: number }): string {
  const current = report.current ?? '';
  const pull = report.pullRequest;
  const since = options.firstNotice ? `your context was read at ${short(report.commit)}` : `the last freshness notice (${short(report.commit)})`;
  const opening =
    pull?.currentBaseRef && pull.baseRef && pull.currentBaseRef !== pull.baseRef
      ? `Pull request #${pull.number} now merges into ${report.ref} (it was ${pull.baseRef}); ${report.ref} is at ${short(current)}, compared with ${since}.`
      : `${report.ref} moved ${short(report.commit)} -> ${short(current)} since ${since}.`;
  const rules = report.ruleSet?.status === 'changed' ? ['Rules added since apply from now on (their text follows, unless an earlier turn gave it); rules that no longer apply must not be followed.'] : [];
  return [
    opening,
    ...reportLines(report, options.maxUnchanged),
    `Re-read the changed sources at ${short(current)} before acting on them; deleted sources no longer apply.`,
    ...rules,
  ].join('\n');
}

/** The notice when the ref could not be re-resolved: the model must not assume its context is current. */
export function describeUnchecked(report: FreshnessReport): string {
  return [
    `Could not check whether ${report.ref} moved since your context was read at ${short(report.commit)}: ${report.reason ?? 'no reason given'}.`,
    'The repository rules and skills you were given may be out of date: re-read them before a consequential action (pushing, approving, reporting the task done).',
  ].join('\n');
}

export function describeHeadMove(number: number, from: string, to: string): string {
  return [
    `Pull request #${number} head moved ${short(from)} -> ${short(to)}: new commits were pushed after your context was built.`,
    'Read the new head before reviewing, commenting or approving; what you read of the old head may no longer be in the pull request.',
  ].join('\n');
}

export function describeHeadUnchecked(number: number, reason: string): string {
  return `Could not check whether pull request #${number} has new commits: ${reason}. Read its current head before reviewing, commenting or approving.`;
}
