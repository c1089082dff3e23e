import { describe, expect, it } from 'vitest';
import type { CheckReads, CheckTask } from '../../src/checks/check-task.ts';
import { summariseCi } from '../../src/checks/ci.ts';
import { checkLine } from '../../src/checks/describe.ts';
import { runCheck } from '../../src/checks/run-check.ts';
import type { CheckRun, CommitChecksApi, CommitStatus, Listing } from '../../src/sources/commit-checks.ts';
import type { PullRequestRead } from '../../src/sources/pull-requests.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const ok = <T,>(items: T[], complete = true): Listing<T> => ({ status: 'ok', items, complete });

/** A source that only resolves refs, from a table; nothing else is asked of it by these checks. */
function refs(table: Record<string, string>): RepositorySource {
  return {
    repository: 'test:repo',
    resolve: async (ref) => (table[ref] ? { status: 'ok', commit: table[ref] } : { status: 'missing', ref }),
    snapshot: () => {
      throw new Error('no snapshot in this test');
    },
  };
}

/** A deadline past the test's own timeout, for checks that must finish: only the test about the deadline lets one decide. */
const FINISHES = 60_000;

/** GitHub reads that answer from fixed values, or never (a hang that ignores its signal). */
function github(pull: PullRequestRead | 'never', checks: Partial<CommitChecksApi> = {}): NonNullable<CheckReads['github']> {
  return {
    pullRequest: () => (pull === 'never' ? new Promise<PullRequestRead>(() => {}) : Promise.resolve(pull)),
    checkRuns: checks.checkRuns ?? (async () => ok([])),
    commitStatuses: checks.commitStatuses ?? (async () => ok([])),
    pullRequestReviews: checks.pullRequestReviews ?? (async () => ok([])),
  };
}

const open = (head: string, more: Partial<Extract<PullRequestRead, { status: 'ok' }>['pullRequest']> = {}): PullRequestRead => ({
  status: 'ok',
  pullRequest: { number: 7, baseRef: 'main', headSha: head, headRef: 'feature', state: 'open', merged: false, draft: false, mergeable: true, mergeableState: 'clean', ...more },
});
const forkTask: CheckTask = { repository: 'acme/widgets', commit: A, pullRequest: { number: 7, headSha: B, headRef: 'feature', baseRef: 'main', fromFork: true }, knowledge: [] };
const now = () => Date.parse('2026-11-20T18:02:00Z');

describe('the CI summary of one commit', () => {
  it('counts neutral and skipped runs as passing, names them, and is unknown when a listing was cut at its bound', () => {
    const passing = summariseCi(A, ok([{ name: 'build', status: 'completed', conclusion: 'success' }, { name: 'docs', status: 'completed', conclusion: 'neutral' }]), ok([]));
    expect(passing).toMatchObject({ none: false, stop: [], unknown: [], go: ['all 2 checks on aaaaaaa passed (1 neutral or skipped)'] });
    const cut = summariseCi(A, ok([{ name: 'build', status: 'completed', conclusion: 'success' }], false), ok([]));
    expect(cut.unknown).toEqual(['GitHub listed only part of the check runs on aaaaaaa (1 read): the rest could not be read']);
    expect(cut.go).toEqual(['all 1 check read on aaaaaaa passed']);
    expect(cut.summary?.complete).toBe(false);
  });

  it('says what is true of a list that is not whole: cut at the bound of 300, or shorter than the count GitHub gave with it', () => {
    const passed = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, status: 'completed', conclusion: 'success' }));
    const statuses = (n: number) => Array.from({ length: n }, (_, i) => ({ context: `ci/${i}`, state: 'success' as const }));
    const withTotal = <T,>(items: T[], total: number | undefined): Listing<T> => ({ status: 'ok', items, complete: false, ...(total === undefined ? {} : { total }) });
    const cases: Array<[Listing<CheckRun>, Listing<CommitStatus>, string[]]> = [
      [withTotal(passed(2, 'r'), 5), ok([]), ['GitHub counts 5 check runs on aaaaaaa but listed 2: the other 3 could not be read']],
      [ok(passed(1, 'r')), withTotal(statuses(1), 4), ['GitHub counts 4 commit statuses on aaaaaaa but listed 1: the other 3 could not be read']],
      [withTotal(passed(300, 'r'), 412), ok([]), ['GitHub has 412 check runs on aaaaaaa: only the first 300 were read']],
      [withTotal(passed(300, 'r'), undefined), withTotal(statuses(300), 300), ['GitHub has more than 300 check runs on aaaaaaa: only the first 300 were read', 'GitHub has more than 300 commit statuses on aaaaaaa: only the first 300 were read']],
    ];
    for (const [runs, commitStatuses, unknown] of cases) {
      const found = summariseCi(A, runs, commitStatuses);
      expect(found.unknown).toEqual(unknown);
      expect(found.stop).toEqual([]);
      expect(found.go).toEqual([expect.stringMatching(/^all \d+ checks read on aaaaaaa passed$/)]);
    }
  });

  it('names every conclusion that is not a pass, and a status that errored', () => {
    const conclusions = ['failure', 'cancelled', 'timed_out', 'action_required', 'stale', 'startup_failure', 'something_new'];
    const found = summariseCi(A, ok(conclusions.map((conclusion) => ({ name: conclusion, status: 'completed', conclusion }))), ok([{ context: 'ci/x', state: 'error' }]));
    expect(found.stop).toEqual(['failure failed', 'cancelled was cancelled', 'timed_out timed out', 'action_required needs action (action_required)', 'stale went stale', 'startup_failure failed to start', 'something_new ended something_new', 'ci/x errored']);
  });

  it('is unknown with both reasons when neither list could be read', () => {
    expect(summariseCi(A, { status: 'failed', reason: 'rate limit exhausted (403)' }, { status: 'failed', reason: 'bad credentials (401)' })).toEqual({
      summary: null,
      none: false,
      stop: [],
      unknown: ['could not read the check runs of aaaaaaa: rate limit exhausted (403)', 'could not read the commit statuses of aaaaaaa: bad credentials (401)'],
      go: [],
    });
  });
});

describe('push on a local (file://) repository', () => {
  const local: CheckTask = { repository: 'file:///home/ada/app', commit: A, ref: 'main', knowledge: [] };
  const push = async (table: Record<string, string>, branch?: string, task: CheckTask = local) =>
    runCheck({ task, request: { action: 'push', ...(branch ? { branch } : {}) }, reads: { source: refs(table), now }, deadlineMs: 1_000 });

  it('says the branch moved in the local repository, never that someone pushed on a remote there is none of', async () => {
    expect(await push({ main: A })).toMatchObject({ verdict: 'go', reasons: ['main is still at aaaaaaa in the local repository, the commit you built on'] });
    expect(await push({ main: B })).toMatchObject({ verdict: 'stop', reasons: ['main moved: it is at bbbbbbb in the local repository, not aaaaaaa you built on'], details: { remote: B, moved: true } });
    expect(await push({})).toMatchObject({ verdict: 'stop', reasons: ['main no longer exists in the local repository'] });
    expect(await push({}, 'fix-login')).toMatchObject({ verdict: 'go', reasons: ['fix-login does not exist in the local repository yet: pushing creates it'] });
    const failing: RepositorySource = { ...refs({}), resolve: async (ref) => ({ status: 'failed', ref, reason: 'the repository could not be read' }) };
    expect(await runCheck({ task: local, request: { action: 'push' }, reads: { source: failing, now }, deadlineMs: 1_000 })).toMatchObject({
      verdict: 'unknown',
      reasons: ['could not resolve main in the local repository: the repository could not be read'],
    });
    for (const result of [await push({ main: B }), await push({})]) expect(result.reasons.join(' ')).not.toMatch(/remote|someone else pushed/);
  });

  it('still says someone else pushed on the remote for a git URL or a GitHub repository', async () => {
    for (const repository of ['https://git.example.com/app.git', 'acme/widgets']) {
      expect(await push({ main: B }, undefined, { ...local, repository })).toMatchObject({ verdict: 'stop', reasons: ['someone else pushed: main is at bbbbbbb on the remote, not aaaaaaa you built on'] });
    }
  });
});

describe('push for a pull request from a fork', () => {
  it('compares the head GitHub reports (the branch is in the fork), never resolving it in the base repository', async () => {
    const asked: string[] = [];
    const source = refs({ main: A });
    const resolve = source.resolve;
    const result = await runCheck({
      task: forkTask,
      request: { action: 'push' },
      reads: { source: { ...source, resolve: (ref, options) => (asked.push(ref), resolve(ref, options)) }, github: github(open(C)), now },
      deadlineMs: FINISHES,
    });
    expect(result).toMatchObject({ verdict: 'stop', reasons: ['someone else pushed: the head of pull request #7 (feature) is at ccccccc, not bbbbbbb you built on', 'pull request #7 is open', 'the base main is still at aaaaaaa'] });
    expect(asked).toEqual(['main']);
  });
});

describe('a check whose reads never answer', () => {
  it('is unknown at its deadline even when the read ignores its signal', async () => {
    const result = await runCheck({ task: forkTask, request: { action: 'merge' }, reads: { source: refs({}), github: github('never'), now }, deadlineMs: 20 });
    expect(result).toMatchObject({ action: 'merge', verdict: 'unknown', reasons: ['the check did not finish: no answer within 20 ms'], details: { number: 7, reviewed: B, state: null } });
  });

  it('is unknown with the reason when the repository could not be opened at all', async () => {
    const result = await runCheck({ task: forkTask, request: { action: 'report-ci' }, reads: { unavailable: 'could not open the repository: no credentials', now }, deadlineMs: FINISHES });
    expect(result).toMatchObject({ verdict: 'unknown', reasons: ['could not open the repository: no credentials'], details: { commit: B, headOf: 'pull request #7', ci: null } });
    expect(checkLine(result)).toBe('report-ci on bbbbbbb at 2026-11-20 18:02 UTC: unknown, could not open the repository: no credentials');
  });
});

describe('reasons', () => {
  it('are bounded: at most 20 are kept and the rest counted, each cut to 400 characters', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `${'x'.repeat(500)}-${i}`, status: 'completed', conclusion: 'failure' }));
    const result = await runCheck({
      task: { ...forkTask, pullRequest: { number: 7, headSha: B, headRef: 'feature', baseRef: 'main', fromFork: false } },
      request: { action: 'report-ci' },
      reads: { source: refs({}), github: github(open(B), { checkRuns: async () => ok(many) }), now },
      deadlineMs: FINISHES,
    });
    expect(result.reasons).toHaveLength(21);
    expect(result.reasons.at(-1)).toBe('+11 more');
    expect(Math.max(...result.reasons.map((reason) => reason.length))).toBe(400);
  });
});
