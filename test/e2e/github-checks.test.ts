import { describe, expect, it } from 'vitest';
import { pushToBranch, setCommitChecks, updatePullRequest } from '../support/github-api-client.ts';
import { check, pullRequestTask } from './support-checks.ts';

const short = (sha: string) => sha.slice(0, 7);

describe('report-ci before saying CI passed, against the GitHub API', () => {
  it('says go when every check run and status on the head passed and it is still the head', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, { checkRuns: [{ name: 'build', conclusion: 'success' }, { name: 'docs', conclusion: 'skipped' }], statuses: [{ context: 'ci/lint', state: 'success' }] });
    const answer = await check(task.taskId, { action: 'report-ci' });
    expect(answer).toMatchObject({
      id: 1,
      action: 'report-ci',
      verdict: 'go',
      subject: { ref: task.headRef, commit: task.head, pullRequest: task.number },
      reasons: [`all 3 checks on ${short(task.head)} passed (1 neutral or skipped)`, `${short(task.head)} is still the head of pull request #${task.number}`],
      details: { commit: task.head, headOf: `pull request #${task.number}`, currentHead: task.head, isHead: true, ci: { passed: 3, pending: 0, failed: 0, complete: true, unlisted: 0 } },
    });
    // The repository as the task names it.
    expect(answer.subject.repository).toBe('acme/widgets');
  });

  it('says stop naming each check that failed, was cancelled or is still running', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, {
      checkRuns: [
        { name: 'build', conclusion: 'failure' },
        { name: 'e2e', conclusion: 'cancelled' },
        { name: 'lint', status: 'in_progress' },
        { name: 'unit', conclusion: 'success' },
      ],
      statuses: [{ context: 'ci/deploy', state: 'pending', description: 'Waiting for approval' }],
    });
    const answer = await check(task.taskId, { action: 'report-ci' });
    expect(answer.verdict).toBe('stop');
    expect(answer.reasons).toEqual(['build failed', 'e2e was cancelled', 'lint has not finished (in_progress)', 'ci/deploy is pending (Waiting for approval)', `${short(task.head)} is still the head of pull request #${task.number}`]);
    expect(answer.details).toMatchObject({ ci: { passed: 1, pending: 2, failed: 2 } });
  });

  it('says unknown when GitHub has no checks at all for the commit', async () => {
    const task = await pullRequestTask();
    const answer = await check(task.taskId, { action: 'report-ci' });
    expect(answer).toMatchObject({ verdict: 'unknown', reasons: [`GitHub has no check runs or commit statuses for ${short(task.head)}: nothing says it passed`, `${short(task.head)} is still the head of pull request #${task.number}`] });
  });

  it('says stop when a newer head was pushed between the pin and the check, even with every check on the old one green', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, { checkRuns: [{ name: 'build', conclusion: 'success' }] });
    const newer = await pushToBranch(task.headRef, { 'src/feature.ts': 'export const tag = "newer";\n' });
    const answer = await check(task.taskId, { action: 'report-ci' });
    expect(answer).toMatchObject({
      verdict: 'stop',
      reasons: [`a newer head ${short(newer)} is on pull request #${task.number}: CI for ${short(task.head)} says nothing about it`, `all 1 check on ${short(task.head)} passed`],
      details: { currentHead: newer, isHead: false },
    });
    // The host may ask about the commit it means: the newer head, green too.
    await setCommitChecks(newer, { checkRuns: [{ name: 'build', conclusion: 'success' }] });
    expect(await check(task.taskId, { action: 'report-ci', commit: newer })).toMatchObject({ id: 2, verdict: 'go', subject: { commit: newer } });
  });
});

describe('push before pushing, against the GitHub API', () => {
  it('says go while the head branch is where the agent built on, stop once someone else pushed, and names the commits', async () => {
    const task = await pullRequestTask();
    expect(await check(task.taskId, { action: 'push' })).toMatchObject({
      verdict: 'go',
      subject: { ref: task.headRef, commit: task.head, pullRequest: task.number },
      reasons: [`pull request #${task.number} is open`, `the base ${task.baseRef} is still at ${short(task.base)}`, `the head of pull request #${task.number} (${task.headRef}) is still at ${short(task.head)}, the commit you built on`],
      details: { branch: task.headRef, builtOn: task.head, remote: task.head, exists: true, moved: false, pullRequest: { state: 'open', baseMoved: false, base: task.base, currentBase: task.base } },
    });
    const theirs = await pushToBranch(task.headRef, { 'src/other.ts': 'export {};\n' });
    const stopped = await check(task.taskId, { action: 'push' });
    expect(stopped.verdict).toBe('stop');
    expect(stopped.reasons[0]).toBe(`someone else pushed: the head of pull request #${task.number} (${task.headRef}) is at ${short(theirs)}, not ${short(task.head)} you built on`);
    expect(stopped.details).toMatchObject({ remote: theirs, moved: true });
  });

  it('reports a base that moved, and stops for it only when asked', async () => {
    const task = await pullRequestTask();
    const moved = await pushToBranch(task.baseRef, { 'AGENTS.md': '# Rules\n\nNew base rules.\n' });
    const told = `the base ${task.baseRef} moved ${short(task.base)} -> ${short(moved)} since the task was pinned`;
    const reported = await check(task.taskId, { action: 'push' });
    expect(reported.verdict).toBe('go');
    expect(reported.reasons).toContain(`${told} (reported only: ask with stopIfBaseMoved to stop for it)`);
    expect(reported.details).toMatchObject({ pullRequest: { baseMoved: true, currentBase: moved } });
    const asked = await check(task.taskId, { action: 'push', stopIfBaseMoved: true });
    expect(asked).toMatchObject({ verdict: 'stop', reasons: [told, `pull request #${task.number} is open`, expect.stringContaining('is still at')] });
  });

  it('says stop when the pull request was closed or merged since', async () => {
    const task = await pullRequestTask();
    await updatePullRequest(task.number, { state: 'closed' });
    expect(await check(task.taskId, { action: 'push' })).toMatchObject({ verdict: 'stop', reasons: [`pull request #${task.number} was closed`, expect.any(String), expect.any(String)], details: { pullRequest: { state: 'closed' } } });
    await updatePullRequest(task.number, { merged: true });
    expect(await check(task.taskId, { action: 'push' })).toMatchObject({ verdict: 'stop', reasons: [`pull request #${task.number} was merged`, expect.any(String), expect.any(String)] });
  });

  it('compares another branch the host names with the commit it says it built on; a new branch is go', async () => {
    const task = await pullRequestTask();
    expect(await check(task.taskId, { action: 'push', branch: task.baseRef, commit: task.base })).toMatchObject({
      verdict: 'go',
      subject: { ref: task.baseRef, commit: task.base },
      reasons: expect.arrayContaining([`${task.baseRef} is still at ${short(task.base)} on the remote, the commit you built on`]),
    });
    const fresh = `ck-new-${crypto.randomUUID().slice(0, 8)}`;
    expect(await check(task.taskId, { action: 'push', branch: fresh, commit: task.head })).toMatchObject({
      verdict: 'go',
      reasons: expect.arrayContaining([`${fresh} does not exist on the remote yet: pushing creates it`]),
      details: { exists: false, remote: null },
    });
  });
});

describe('merge before merging, against the GitHub API', () => {
  it('says go for an open, clean, approved pull request whose checks passed on the reviewed head', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, { checkRuns: [{ name: 'build', conclusion: 'success' }] });
    await updatePullRequest(task.number, { reviews: [{ login: 'ada', state: 'COMMENTED' }, { login: 'ada', state: 'APPROVED', commit: task.head }] });
    expect(await check(task.taskId, { action: 'merge' })).toMatchObject({
      verdict: 'go',
      subject: { ref: task.headRef, commit: task.head, pullRequest: task.number },
      reasons: ['GitHub says it can be merged (clean)', 'approved by @ada', `all 1 check on ${short(task.head)} passed`],
      details: { state: 'open', draft: false, currentHead: task.head, mergeable: true, mergeableState: 'clean', reviews: { approved: ['ada'], changesRequested: [], complete: true } },
    });
  });

  it('says stop naming what is in the way: a reviewer asking for changes, a blocked merge state, a failed check', async () => {
    const task = await pullRequestTask();
    await setCommitChecks(task.head, { checkRuns: [{ name: 'build', conclusion: 'failure' }] });
    await updatePullRequest(task.number, { mergeableState: 'blocked', reviews: [{ login: 'ada', state: 'APPROVED' }, { login: 'grace', state: 'APPROVED' }, { login: 'grace', state: 'CHANGES_REQUESTED' }] });
    const answer = await check(task.taskId, { action: 'merge' });
    expect(answer.verdict).toBe('stop');
    expect(answer.reasons).toEqual(['GitHub says merging is blocked: a review or check the base requires is missing (blocked)', '@grace requested changes', 'build failed', 'approved by @ada']);
  });

  it('says unknown while GitHub is still working out mergeability, and stop for a draft', async () => {
    const task = await pullRequestTask();
    await updatePullRequest(task.number, { mergeable: null, mergeableState: 'unknown' });
    const computing = await check(task.taskId, { action: 'merge' });
    expect(computing.verdict).toBe('unknown');
    expect(computing.reasons.slice(0, 2)).toEqual([
      `GitHub has not worked out yet whether pull request #${task.number} merges cleanly: ask again shortly`,
      'GitHub says it has not worked out the merge state yet: ask again shortly (unknown)',
    ]);
    await updatePullRequest(task.number, { mergeable: true, mergeableState: 'draft', draft: true });
    expect(await check(task.taskId, { action: 'merge' })).toMatchObject({ verdict: 'stop', reasons: [`pull request #${task.number} is a draft`, expect.any(String), expect.any(String)] });
  });

  it('says stop when new commits arrived after the head that was reviewed', async () => {
    const task = await pullRequestTask();
    const newer = await pushToBranch(task.headRef, { 'src/late.ts': 'export {};\n' });
    const answer = await check(task.taskId, { action: 'merge' });
    expect(answer).toMatchObject({ verdict: 'stop', details: { reviewed: task.head, currentHead: newer } });
    expect(answer.reasons[0]).toBe(`new commits: the head of pull request #${task.number} is at ${short(newer)}, not ${short(task.head)} that was reviewed`);
  });
});
