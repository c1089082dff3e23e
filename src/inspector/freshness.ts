/**
 * @module inspector/freshness
 * The page's freshness read-back, asked for by a link and never on load (it reads the
 * repository): where the task's ref points now, the pull request as it is now, how the rule set
 * for the task's focus changed (one row per change, with its reason), and one row per source that
 * reached the model, the ones that need attention first.
 */
import type { FreshnessReport, RuleChangeKind, RuleSetCheck, SourceCheck, SourceStatus } from '../freshness/report.ts';
import { CLIENT_TITLES } from '../context/client.ts';
import type { InspectedFreshness } from '../tasks/inspection.ts';
import type { RepositoryLinks } from './links.ts';
import type { Linked } from './task-page.ts';

export interface FreshnessRow {
  status: SourceStatus;
  provider: string;
  title: string;
  /** The source at the commit it was compared from. */
  source: Linked;
  /** Blob ids, shortened: as given to the model, and now. */
  blob: string | null;
  currentBlob: string | null;
  /** Why it is unverifiable or what became of it, and a skills index's added/deleted skills. */
  notes: string[];
}

/** One change of the rule set: the file (linked at the commit where it is), and the line that says what and why. */
export interface RuleChangeRow {
  change: RuleChangeKind;
  provider: string;
  file: Linked;
  line: string;
}

/** How the rule set for the task's focus changed between the two commits; absent when none was compared. */
export interface RuleSetModel {
  status: RuleSetCheck['status'];
  reason?: string | undefined;
  /** The client the task named, by its title: the rules are compared as it sees them. */
  client?: string | undefined;
  rows: RuleChangeRow[];
}

export type FreshnessModel =
  | { status: 'unavailable'; reason: string }
  | {
      status: 'checked';
      checkedAt: string;
      ref: string;
      from: Linked;
      current: Linked | null;
      moved: boolean | null;
      reason?: string | undefined;
      pullRequest?: { number: number; head: string; state: string; reason?: string | undefined } | undefined;
      /** How many sources have each verdict. */
      counts: Record<SourceStatus, number>;
      rows: FreshnessRow[];
      rules?: RuleSetModel | undefined;
    };

/** Changed, deleted and unverifiable sources come before unchanged ones. */
const ORDER: Record<SourceStatus, number> = { changed: 0, deleted: 1, unverifiable: 2, unchanged: 3 };

const short = (sha: string | null | undefined): string | null => (sha ? sha.slice(0, 12) : null);

export function freshnessModel(freshness: InspectedFreshness, links: RepositoryLinks): FreshnessModel {
  if (freshness.status === 'unavailable') return freshness;
  const { report } = freshness;
  const counts: Record<SourceStatus, number> = { changed: 0, deleted: 0, unverifiable: 0, unchanged: 0 };
  for (const source of report.sources) counts[source.status] += 1;
  const pr = report.pullRequest;
  return {
    status: 'checked',
    checkedAt: report.checkedAt,
    ref: report.ref,
    from: { text: report.commit, href: links.commit(report.commit) },
    current: report.current ? { text: report.current, href: links.commit(report.current) } : null,
    moved: report.moved,
    reason: report.reason,
    pullRequest: pr ? { number: pr.number, head: headLine(pr.head, pr.currentHead, pr.headMoved), state: pr.state ?? 'unknown', reason: pr.reason } : undefined,
    counts,
    rows: report.sources
      .map((source, index) => ({ source, index }))
      .sort((a, b) => ORDER[a.source.status] - ORDER[b.source.status] || a.index - b.index)
      .map(({ source }) => row(source, links)),
    rules: rulesModel(report, links),
  };
}

/** A removed file is linked where it was; every other, where it is now; a settings change or a skills root, not at all. */
function rulesModel(report: FreshnessReport, links: RepositoryLinks): RuleSetModel | undefined {
  const check = report.ruleSet;
  if (!check) return undefined;
  const rows = check.changes.map((change): RuleChangeRow => {
    const at = change.change === 'removed' ? report.commit : report.current;
    const linked = change.change !== 'settings' && change.change !== 'skill-root' && at;
    return { change: change.change, provider: change.provider, file: { text: change.path || '(repository root)', href: linked ? links.file(change.path, at) : undefined }, line: change.line };
  });
  const client = check.client === undefined ? undefined : (CLIENT_TITLES as Readonly<Record<string, string>>)[check.client];
  return { status: check.status, reason: check.reason, client, rows };
}

function row(source: SourceCheck, links: RepositoryLinks): FreshnessRow {
  const label = source.path === '' ? '(repository root)' : source.path;
  return {
    status: source.status,
    provider: source.provider,
    title: source.title,
    source: { text: label, href: source.kind === 'file' ? links.file(source.path, source.revision) : undefined },
    blob: short(source.blob),
    currentBlob: short(source.currentBlob),
    notes: [...(source.reason ? [source.reason] : []), ...(source.changes ?? [])],
  };
}

function headLine(head: string | null, current: string | null, moved: boolean | null): string {
  if (moved === null || current === null) return `head ${short(head) ?? 'unknown'} (could not be read now)`;
  return moved ? `head moved ${short(head) ?? 'unknown'} → ${short(current)}` : `head still at ${short(current)}`;
}
