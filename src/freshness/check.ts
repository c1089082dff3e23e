/**
 * @module freshness/check
 * "What changed since the model was given its context?" Re-resolves what the task was pinned
 * from (the branch or tag it named, a pull request's base as it is now, else the default
 * branch), and when that moved, compares every tracked source between the task's commit (or
 * `since`) and the current one. Costs one ref resolution (plus one pull request read for a
 * pull request task) and the tree of the current commit; the old commit's tree is only read for
 * a skills index, and a warm cache already holds it.
 *
 * Every failure is reported: an unresolvable ref makes every source `unverifiable` with the
 * reason, and the whole check runs under `deadlineMs`.
 *
 * @example
 * const report = await checkFreshness({ source, commit, ref: 'main', sources: trackedSources(entries), deadlineMs: 8_000, now: Date.now });
 * report.sources.filter((s) => s.status !== 'unchanged') // what to re-read before pushing
 */
import type { PullRequestView } from '../context/provider.ts';
import type { GitHubApi } from '../sources/pull-requests.ts';
import { COMMIT_SHA, type RepositorySource, type ResolveResult, type Snapshot } from '../sources/snapshot.ts';
import type { RuleSetReader } from '../context/rule-set.ts';
import { compareSource } from './compare.ts';
import { compareRuleSets, UNCHANGED_RULE_SET } from './rule-set-check.ts';
import { withDeadline } from '../context/deadline.ts';
import type { FreshnessReport, PullRequestCheck, SourceCheck } from './report.ts';
import type { TrackedSource } from './tracked.ts';

export interface FreshnessInput {
  source: RepositorySource;
  /** The task's pinned commit. */
  commit: string;
  /**
   * The snapshot the context was read from, at `commit`: compared from without a second read of
   * that commit's tree (it carries what the task read, and the host's read plan and cache).
   */
  pinned?: Snapshot;
  /** The branch or tag the task's commit came from (see `pinnedFrom`); a commit or nothing means the default branch. */
  ref?: string;
  /** Resolve exactly this instead (a person comparing with a commit of their choice, as the CLI lets them). */
  target?: string;
  /** Compare from this commit instead of the task's (what the model was last told). */
  since?: string;
  sources: readonly TrackedSource[];
  /**
   * The task's rule set at any commit (context/rule-set-reader): with it, the check also compares
   * the rule set for the task's focus at the two commits, and reads the new head with its plan.
   */
  ruleSets?: RuleSetReader;
  pullRequest?: {
    github: Pick<GitHubApi, 'pullRequest'>;
    number: number;
    /** The head the model knows. */
    head?: string;
  };
  deadlineMs: number;
  signal?: AbortSignal;
  now: () => number;
}

/** What a task's commit was resolved from: a pull request's base branch, else the ref the task named. */
export function pinnedFrom(task: { ref?: string; pullRequest?: Pick<PullRequestView, 'baseRef'> }): string | undefined {
  return task.pullRequest?.baseRef ?? task.ref;
}

/** The ref to re-resolve: the named branch or tag, else the default branch. */
export function targetRef(ref: string | undefined): string {
  return ref === undefined || COMMIT_SHA.test(ref.toLowerCase()) ? 'HEAD' : ref;
}

export async function checkFreshness(input: FreshnessInput): Promise<FreshnessReport> {
  return (await inspectFreshness(input)).report;
}

/** The report, and the snapshot of the new head it was compared with (what a later turn reads what was added from). */
export async function inspectFreshness(input: FreshnessInput): Promise<{ report: FreshnessReport; head?: Snapshot }> {
  const from = input.since ?? input.commit;
  const named = input.target ?? targetRef(input.ref);
  const bounded = await withDeadline((signal) => run(input, named, from, signal), input.deadlineMs, { signal: input.signal });
  // The caller's abort is theirs to handle, not a finding about the repository.
  if (bounded.kind === 'aborted') throw input.signal?.reason;
  const checkedAt = new Date(input.now()).toISOString();
  if (bounded.kind === 'returned') {
    const { head, ...report } = bounded.value;
    return { report: { ...report, checkedAt }, ...(head ? { head } : {}) };
  }
  const why = bounded.kind === 'timed-out' ? `no answer within ${input.deadlineMs} ms` : bounded.reason;
  const reason = `the check did not finish: ${why}`;
  const pullRequest = input.pullRequest ? { pullRequest: { ...pullRequestUnknown(input.pullRequest, input.ref ?? named), reason: why } } : {};
  return { report: { ...unresolved(input, named, from, reason), ...pullRequest, checkedAt } };
}

type Unstamped = Omit<FreshnessReport, 'checkedAt'> & { head?: Snapshot };

async function run(input: FreshnessInput, named: string, from: string, signal: AbortSignal): Promise<Unstamped> {
  const { source } = input;
  const [pull, resolvedNamed] = await Promise.all([input.pullRequest?.github.pullRequest(input.pullRequest.number, { signal }), source.resolve(named, { signal })]);
  let ref = named;
  let resolved: ResolveResult = resolvedNamed;
  let pullRequest: PullRequestCheck | undefined;
  if (input.pullRequest && pull) {
    const known = pullRequestUnknown(input.pullRequest, input.ref ?? named);
    if (pull.status === 'ok') {
      const now = pull.pullRequest;
      const headMoved = known.head === null ? null : now.headSha !== known.head;
      pullRequest = { ...known, currentHead: now.headSha, headMoved, currentBaseRef: now.baseRef, state: now.state };
      // Retargeted: the rules that govern the merge are the new base's.
      if (now.baseRef !== named) {
        ref = now.baseRef;
        resolved = await source.resolve(ref, { signal });
      }
    } else {
      pullRequest = { ...known, reason: pull.status === 'missing' ? 'GitHub has no such pull request now' : pull.reason };
    }
  }
  const withPull = pullRequest ? { pullRequest } : {};
  if (resolved.status !== 'ok') {
    const reason = resolved.status === 'missing' ? `${ref} does not name a commit in ${source.repository} now` : `could not resolve ${ref}: ${resolved.reason}`;
    return { ...unresolved(input, ref, from, reason), ...withPull };
  }
  const current = resolved.commit;
  // The same commit gives the same rule set for the same focus: nothing to read.
  const client = input.ruleSets?.client;
  const sameRules = input.ruleSets ? { ruleSet: client === undefined ? UNCHANGED_RULE_SET : { ...UNCHANGED_RULE_SET, client } } : {};
  if (current === from) return { commit: from, ref, current, moved: false, ...withPull, sources: input.sources.map((tracked) => unchanged(from, tracked)), ...sameRules };

  // Every source is compared from the commit the context was read at, even one that cites an
  // older revision (knowledge): what changed before then, the model was told when it was read.
  // Loads the two snapshots share end with the check, not after it. The new head is read with the
  // plan the task's readers read with, so its listing serves the sources and the rule set at once.
  const plan = input.ruleSets?.plan();
  const before = input.pinned?.commit === from ? input.pinned : source.snapshot(from, { ...(plan ? { plan } : {}), signal });
  const pair = { before, after: source.snapshot(current, { ...(plan ? { plan } : {}), signal }), signal };
  const [sources, ruleSet] = await Promise.all([
    Promise.all(input.sources.map((tracked) => compareSource(tracked, pair))),
    input.ruleSets ? compareRuleSets(input.ruleSets, pair, input.sources, client) : undefined,
  ]);
  return { commit: from, ref, current, moved: true, ...withPull, sources, ...(ruleSet ? { ruleSet } : {}), head: pair.after };
}

/** A tracked source where nothing moved: its blob at the commit compared from, when known without reading. */
function unchanged(from: string, tracked: TrackedSource): SourceCheck {
  const check = base(from, tracked);
  return { ...check, status: 'unchanged', ...(check.blob === null ? {} : { currentBlob: check.blob }) };
}

/** A report that could not be made at all (the repository could not even be opened): every source `unverifiable`. */
export function uncheckedReport(input: Omit<FreshnessInput, 'source' | 'deadlineMs'>, reason: string): FreshnessReport {
  const report = unresolved(input, targetRef(input.ref), input.since ?? input.commit, reason);
  return { ...report, checkedAt: new Date(input.now()).toISOString() };
}

function unresolved(input: Omit<FreshnessInput, 'source' | 'deadlineMs'>, ref: string, from: string, reason: string): Unstamped {
  const sources = input.sources.map((tracked): SourceCheck => ({ ...base(from, tracked), status: 'unverifiable', reason }));
  return { commit: from, ref, current: null, moved: null, reason, sources, ...(input.ruleSets ? { ruleSet: { status: 'unverifiable' as const, reason, changes: [] } } : {}) };
}

function base(from: string, tracked: TrackedSource): Omit<SourceCheck, 'status'> {
  const blob = from === tracked.revision ? (tracked.blob ?? null) : null;
  return { provider: tracked.provider, kind: tracked.kind, title: tracked.title, path: tracked.path, revision: from, blob };
}

/** What is known of the pull request before GitHub answers. */
function pullRequestUnknown(pull: NonNullable<FreshnessInput['pullRequest']>, baseRef: string): PullRequestCheck {
  return { number: pull.number, head: pull.head ?? null, currentHead: null, headMoved: null, baseRef, currentBaseRef: null, state: null };
}
