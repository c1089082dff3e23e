/**
 * @module checks/ci
 * The check runs and commit statuses GitHub has for one commit, as one list of checks that
 * passed, are pending or failed, with the reasons each gives. `neutral` and `skipped` runs pass
 * (GitHub counts them so for required checks) and are named as such; anything not completed is
 * pending; every other conclusion fails. None at all, a listing cut at its bound, one shorter
 * than the count GitHub gave with it, or one GitHub could not give is `unknown`: nothing can be
 * said about checks nobody read, and the reason says which of these it was.
 */
import type { CheckRun, CommitChecksApi, CommitStatus, Listing } from '../sources/commit-checks.ts';
import { short } from './verdict.ts';
import type { CiCheck, CiSummary } from './details.ts';

/** Check runs and statuses read per commit (three pages of each). */
export const MAX_CHECKS = 300;
/** Checks listed in a verdict's details, those that did not pass first; the rest are counted. */
const MAX_LISTED = 100;

export interface CiFinding {
  /** Null when neither list could be read. */
  summary: CiSummary | null;
  /** Both lists were read in full and hold nothing (the `unknown` reason says so). */
  none: boolean;
  stop: string[];
  unknown: string[];
  go: string[];
}

/** Both lists for `commit`, read side by side. */
export async function readCi(github: CommitChecksApi, commit: string, signal: AbortSignal): Promise<CiFinding> {
  const [runs, statuses] = await Promise.all([github.checkRuns(commit, { limit: MAX_CHECKS, signal }), github.commitStatuses(commit, { limit: MAX_CHECKS, signal })]);
  return summariseCi(commit, runs, statuses);
}

export function summariseCi(commit: string, runs: Listing<CheckRun>, statuses: Listing<CommitStatus>): CiFinding {
  const unknown: string[] = [];
  if (runs.status === 'failed') unknown.push(`could not read the check runs of ${short(commit)}: ${runs.reason}`);
  if (statuses.status === 'failed') unknown.push(`could not read the commit statuses of ${short(commit)}: ${statuses.reason}`);
  if (runs.status === 'failed' && statuses.status === 'failed') return { summary: null, none: false, stop: [], unknown, go: [] };

  const checks = [...(runs.status === 'ok' ? runs.items.map(fromRun) : []), ...(statuses.status === 'ok' ? statuses.items.map(fromStatus) : [])];
  const complete = (runs.status !== 'ok' || runs.complete) && (statuses.status !== 'ok' || statuses.complete);
  const count = (result: CiCheck['result']) => checks.filter((check) => check.result === result).length;
  const order: Record<CiCheck['result'], number> = { failed: 0, pending: 1, passed: 2 };
  const sorted = [...checks].sort((a, b) => order[a.result] - order[b.result]);
  const summary: CiSummary = { commit, passed: count('passed'), pending: count('pending'), failed: count('failed'), complete, checks: sorted.slice(0, MAX_LISTED), unlisted: Math.max(0, sorted.length - MAX_LISTED) };

  const stop = sorted.filter((check) => check.result !== 'passed').map(reasonOf);
  const go: string[] = [];
  for (const [listing, kind] of [[runs, 'check runs'], [statuses, 'commit statuses']] as const) {
    if (listing.status === 'ok' && !listing.complete) unknown.push(notAllRead(listing.items.length, listing.total, kind, commit));
  }
  const none = checks.length === 0 && unknown.length === 0;
  if (none) unknown.push(`GitHub has no check runs or commit statuses for ${short(commit)}: nothing says it passed`);
  if (stop.length === 0 && checks.length > 0) {
    const lenient = checks.filter((check) => /\/(?:neutral|skipped)$/.test(check.state)).length;
    // When a list was not read whole, the pass is of those read, and the line says so.
    go.push(`all ${checks.length} check${checks.length === 1 ? '' : 's'}${complete ? '' : ' read'} on ${short(commit)} passed${lenient > 0 ? ` (${lenient} neutral or skipped)` : ''}`);
  }
  return { summary, none, stop, unknown, go };
}

/**
 * Why a list is not whole, as it is: cut at our bound (GitHub has more than we read), or shorter
 * than the count GitHub gave with it (GitHub left some out of the listing).
 *
 * @example
 * notAllRead(2, 5, 'check runs', sha) // 'GitHub counts 5 check runs on 1a2b3c4 but listed 2: the other 3 could not be read'
 */
function notAllRead(read: number, total: number | undefined, kind: string, commit: string): string {
  if (read >= MAX_CHECKS) return `GitHub has ${total !== undefined && total > read ? total : `more than ${MAX_CHECKS}`} ${kind} on ${short(commit)}: only the first ${MAX_CHECKS} were read`;
  if (total !== undefined && total > read) return `GitHub counts ${total} ${kind} on ${short(commit)} but listed ${read}: the other ${total - read} could not be read`;
  return `GitHub listed only part of the ${kind} on ${short(commit)} (${read} read): the rest could not be read`;
}

const PASSING = new Set(['success', 'neutral', 'skipped']);

function fromRun(run: CheckRun): CiCheck {
  const completed = run.status === 'completed';
  const result = !completed ? 'pending' : PASSING.has(run.conclusion ?? '') ? 'passed' : 'failed';
  return { kind: 'check-run', name: run.name, result, state: completed ? `completed/${run.conclusion ?? 'none'}` : run.status, ...(run.app ? { app: run.app } : {}), ...(run.url ? { url: run.url } : {}) };
}

function fromStatus(status: CommitStatus): CiCheck {
  const result = status.state === 'success' ? 'passed' : status.state === 'pending' ? 'pending' : 'failed';
  return { kind: 'status', name: status.context, result, state: status.state, ...(status.description ? { description: status.description } : {}), ...(status.url ? { url: status.url } : {}) };
}

const CONCLUSION_WORDS: Record<string, string> = {
  failure: 'failed',
  cancelled: 'was cancelled',
  timed_out: 'timed out',
  action_required: 'needs action (action_required)',
  stale: 'went stale',
  startup_failure: 'failed to start',
};

function reasonOf(check: CiCheck): string {
  const about = check.description ? ` (${check.description})` : '';
  if (check.kind === 'status') return check.result === 'pending' ? `${check.name} is pending${about}` : `${check.name} ${check.state === 'error' ? 'errored' : 'failed'}${about}`;
  if (check.result === 'pending') return `${check.name} has not finished (${check.state})`;
  const conclusion = check.state.slice('completed/'.length);
  return `${check.name} ${CONCLUSION_WORDS[conclusion] ?? `ended ${conclusion}`}`;
}
