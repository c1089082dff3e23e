import { describe, expect, it } from 'vitest';
import { tokenAuth } from '../../src/sources/github/index.ts';
import { createGitHubApi } from '../../src/sources/github/pull-request-files.ts';
import { createApiScope, githubFixture, openPullRequest, pushToBranch, setCommitChecks, updatePullRequest } from '../support/github-api-client.ts';

const fx = githubFixture();

function setup() {
  const scope = createApiScope();
  const github = createGitHubApi({ owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
  return { scope, github };
}

/** A commit of this test's own, on a branch of its own. */
const freshCommit = () => pushToBranch(`checks-${crypto.randomUUID().slice(0, 8)}`, { 'CHANGELOG.md': `${crypto.randomUUID()}\n` }, { from: 'main' });
const paths = async (scope: ReturnType<typeof createApiScope>) => (await scope.stats()).requests.map((request) => request.path.replace(`/repos/${fx.owner}/${fx.repo}/`, ''));

describe('the check runs and commit statuses of one commit', () => {
  it('lists check runs by commit id, the latest of each name, in one request when they fit a page', async () => {
    const { scope, github } = setup();
    const commit = await freshCommit();
    await setCommitChecks(commit, {
      checkRuns: [
        { name: 'build', conclusion: 'success' },
        { name: 'lint\n\u001b[31mred', status: 'in_progress' },
      ],
    });
    expect(await github.checkRuns(commit, { limit: 300 })).toEqual({
      status: 'ok',
      complete: true,
      // GitHub's total_count, so a listing shorter than it can say so.
      total: 2,
      items: [
        { name: 'build', status: 'completed', conclusion: 'success', app: 'github-actions', url: expect.stringMatching(/^https:\/\/github\.com\//) },
        // Someone else's text: control characters become spaces.
        { name: 'lint [31mred', status: 'in_progress', conclusion: null, app: 'github-actions', url: expect.any(String) },
      ],
    });
    expect(await paths(scope)).toEqual([`commits/${commit}/check-runs?filter=latest&per_page=100&page=1`]);
  });

  it('pages up to its limit, and says when GitHub had more', async () => {
    const { scope, github } = setup();
    const commit = await freshCommit();
    await setCommitChecks(commit, { checkRuns: Array.from({ length: 130 }, (_, i) => ({ name: `job-${i}`, conclusion: 'success' })), statuses: Array.from({ length: 3 }, (_, i) => ({ context: `ci/${i}`, state: 'success' as const })) });
    const all = await github.checkRuns(commit, { limit: 300 });
    expect(all).toMatchObject({ status: 'ok', complete: true, total: 130 });
    expect(all.status === 'ok' ? all.items.length : 0).toBe(130);
    const cut = await github.checkRuns(commit, { limit: 50 });
    expect(cut).toMatchObject({ status: 'ok', complete: false, total: 130 });
    expect(cut.status === 'ok' ? cut.items.length : 0).toBe(50);
    expect(await paths(scope)).toEqual([
      `commits/${commit}/check-runs?filter=latest&per_page=100&page=1`,
      `commits/${commit}/check-runs?filter=latest&per_page=100&page=2`,
      `commits/${commit}/check-runs?filter=latest&per_page=50&page=1`,
    ]);
    expect(await github.commitStatuses(commit, { limit: 300 })).toEqual({
      status: 'ok',
      complete: true,
      total: 3,
      items: [0, 1, 2].map((i) => ({ context: `ci/${i}`, state: 'success', url: `https://ci.example.com/${commit}/${i}` })),
    });
  });

  it('answers none for a commit without checks, and refuses what is not a commit id', async () => {
    const { scope, github } = setup();
    const commit = await freshCommit();
    expect(await github.checkRuns(commit, { limit: 300 })).toEqual({ status: 'ok', items: [], complete: true, total: 0 });
    expect(await github.commitStatuses(commit, { limit: 300 })).toEqual({ status: 'ok', items: [], complete: true, total: 0 });
    // A branch can move between the question and the answer: only commit ids are asked about.
    expect(await github.checkRuns('main', { limit: 300 })).toEqual({ status: 'failed', reason: 'not a commit id: "main"' });
    expect(await paths(scope)).toEqual([`commits/${commit}/check-runs?filter=latest&per_page=100&page=1`, `commits/${commit}/status?per_page=100&page=1`]);
  });

  it('reports a failing API as a failure with the reason, and throws the caller abort', async () => {
    const { scope, github } = setup();
    const commit = await freshCommit();
    await scope.configure({ faults: [{ status: 502, times: 10, match: '/status' }] });
    expect(await github.commitStatuses(commit, { limit: 300 })).toEqual({
      status: 'failed',
      reason: `GitHub API error (502) for the commit statuses of ${commit} in ${fx.owner}/${fx.repo}, still failing after retries`,
    });
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(github.checkRuns(commit, { limit: 10, signal: controller.signal })).rejects.toThrow('deadline');
  });
});

describe('a pull request as it is now, and its reviews', () => {
  it('reads whether it is open, merged, a draft and mergeable, and who reviewed it', async () => {
    const { github } = setup();
    const branch = `checks-${crypto.randomUUID().slice(0, 8)}`;
    const head = await pushToBranch(branch, { 'feature.txt': 'on\n' }, { from: 'main' });
    const number = await openPullRequest({ base: { ref: 'main', rev: 'main' }, head: { ref: branch, rev: branch } });
    expect(await github.pullRequest(number)).toEqual({
      status: 'ok',
      pullRequest: { number, baseRef: 'main', headSha: head, headRef: branch, state: 'open', merged: false, draft: false, mergeable: true, mergeableState: 'clean' },
    });
    await updatePullRequest(number, { state: 'closed', merged: true, mergeable: null, mergeableState: 'unknown', reviews: [{ login: 'ada', state: 'CHANGES_REQUESTED', commit: head }, { login: 'ada', state: 'APPROVED', commit: head }] });
    expect(await github.pullRequest(number)).toMatchObject({ status: 'ok', pullRequest: { state: 'closed', merged: true, mergeable: null, mergeableState: 'unknown' } });
    expect(await github.pullRequestReviews(number, { limit: 300 })).toEqual({
      status: 'ok',
      complete: true,
      items: [
        { login: 'ada', state: 'CHANGES_REQUESTED', commit: head },
        { login: 'ada', state: 'APPROVED', commit: head },
      ],
    });
    expect(await github.pullRequestReviews(99_999, { limit: 300 })).toEqual({ status: 'failed', reason: `not found (404): the reviews of pull request #99999 of ${fx.owner}/${fx.repo}` });
  });
});
