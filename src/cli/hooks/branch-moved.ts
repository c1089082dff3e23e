/**
 * @module cli/hooks/branch-moved
 * The prompt hook's one line: whether the repository moved under the session since its context
 * was read (or since the model was last told), from the freshness check `groundwork freshness`
 * runs (freshness/check). It speaks when a rules or skill file the session was given changed or
 * is gone, when the rules that apply to its working directory changed for its client (a rule file
 * added, one the client now loads itself or must be given: one line each, after the first), or
 * when another branch was checked out; a commit that touched none of them (the agent's own
 * commits, most often) is noted silently, so the model is not told after every commit.
 */
import type { RuleSetReader } from '../../context/rule-set.ts';
import { checkFreshness } from '../../freshness/check.ts';
import { ruleSetLines } from '../../freshness/describe.ts';
import { short } from '../../freshness/compare.ts';
import { sourceLabel } from '../../freshness/tracked.ts';
import { createLocalGitSource } from '../../sources/git/local-source.ts';
import type { RepositorySource } from '../../sources/snapshot.ts';
import { checkedOutBranch } from '../local-upstream.ts';
import type { SessionRecord } from './session-record.ts';

export type MoveAnswer =
  /** Nothing moved, or nothing the session was given: `record` is what to keep (unchanged when nothing moved). */
  | { kind: 'quiet'; record: SessionRecord }
  | { kind: 'moved'; line: string; record: SessionRecord }
  | { kind: 'failed'; error: string };

export interface MoveInput {
  record: SessionRecord;
  /** The session's rule set at any commit; asked only when HEAD moved. */
  ruleSets?: () => RuleSetReader | undefined;
  deadlineMs: number;
  now: () => number;
  openSource?: (root: string) => RepositorySource;
}

export async function branchMoved(input: MoveInput): Promise<MoveAnswer> {
  const { record } = input;
  const source = (input.openSource ?? createLocalGitSource)(record.root);
  const head = await source.resolve('HEAD');
  if (head.status !== 'ok') return { kind: 'failed', error: `cannot read HEAD of ${record.root}: ${head.status === 'failed' ? head.reason : 'no commit'}` };
  const branch = await checkedOutBranch(record.root);
  const kept = { ...record, told: head.commit, ...(branch === undefined ? {} : { branch }) };
  if (branch === undefined) delete kept.branch;
  if (head.commit === record.told && branch === record.branch) return { kind: 'quiet', record };

  const ruleSets = input.ruleSets?.();
  const report = await checkFreshness({ source, commit: record.commit, since: record.told, target: 'HEAD', sources: record.sources, ...(ruleSets ? { ruleSets } : {}), deadlineMs: input.deadlineMs, now: input.now });
  if (report.current === null) return { kind: 'failed', error: `cannot compare with HEAD: ${report.reason ?? 'no reason given'}` };
  const changed = report.sources.filter((check) => check.status !== 'unchanged');
  const switched = branch !== record.branch;
  const rules = report.ruleSet?.status === 'unchanged' ? [] : ruleSetLines(report.ruleSet);
  if (changed.length === 0 && rules.length === 0 && !switched) return { kind: 'quiet', record: kept };

  const moved = switched
    ? `The checkout moved from ${record.branch ?? 'a detached HEAD'} (${short(record.told)}) to ${branch ?? 'a detached HEAD'} (${short(head.commit)})`
    : `${branch ?? 'HEAD'} moved ${short(record.told)} -> ${short(head.commit)}`;
  const what =
    changed.length === 0
      ? 'the rules and skills this session was given are unchanged there'
      : `changed since: ${changed
          .slice(0, 10)
          .map((check) => `${sourceLabel(check)}${check.status === 'changed' ? '' : ` (${check.status})`}`)
          .join(', ')}${changed.length > 10 ? ` and ${changed.length - 10} more` : ''}; re-read them before you act`;
  const ruled = rules.length === 0 ? '' : `\nThe rules that apply here changed (those given by Groundwork: re-read them at ${short(head.commit)}):\n${[...rules.slice(0, 10), ...(rules.length > 10 ? [`- and ${rules.length - 10} more`] : [])].join('\n')}`;
  return { kind: 'moved', line: `Groundwork: ${moved} since this session's context was read; ${what}.${ruled}`, record: kept };
}
