import { describe, expect, it } from 'vitest';
import { appInstallationAuth, tokenAuth } from '../../src/sources/github/index.ts';
import { createGitHubApi } from '../../src/sources/github/pull-request-files.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';

const fx = githubFixture();

function setup() {
  const scope = createApiScope();
  const github = createGitHubApi({ owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
  return { scope, github };
}

/** The fixture pull request's diff from its base (`first`) to its head, as git computes it. */
const CHANGED = [
  { path: 'AGENTS.md', status: 'modified', additions: 1, deletions: 1 },
  { path: 'scripts/run.sh', status: 'modified', additions: 0, deletions: 0 },
  { path: 'vendor/lib', status: 'added', additions: 1, deletions: 0 },
];

describe('the files a pull request changes', () => {
  it('says so when the App cannot act as the installation, which no later read can change', async () => {
    const scope = createApiScope();
    const auth = appInstallationAuth({ issuer: fx.appId, privateKey: fx.keyPkcs8, installationId: 999, memory: new Map() });
    const github = createGitHubApi({ owner: fx.owner, repo: fx.repo, auth, baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
    expect(await github.pullRequestFiles(fx.pull.number, { limit: 10 })).toEqual({
      status: 'failed',
      reason: expect.stringMatching(new RegExp(`^the files of pull request #${fx.pull.number} of ${fx.owner}/${fx.repo}: GitHub App installation 999 not found \\(404\\)`)),
      credentials: true,
    });
  });

  it('lists them with one request when they fit one page', async () => {
    const { scope, github } = setup();
    expect(github.repository).toBe(`${fx.owner}/${fx.repo}`);
    expect(await github.pullRequestFiles(fx.pull.number, { limit: 100 })).toEqual({ status: 'ok', files: CHANGED, complete: true });
    const { requests } = await scope.stats();
    expect(requests.map((request) => request.path)).toEqual([`/repos/${fx.owner}/${fx.repo}/pulls/${fx.pull.number}/files?per_page=100&page=1`]);
  });

  it('asks only for as many as the limit and says the listing is incomplete', async () => {
    const { scope, github } = setup();
    expect(await github.pullRequestFiles(fx.pull.number, { limit: 2 })).toEqual({ status: 'ok', files: CHANGED.slice(0, 2), complete: false });
    expect((await scope.stats()).requests.map((request) => request.path)).toEqual([`/repos/${fx.owner}/${fx.repo}/pulls/${fx.pull.number}/files?per_page=2&page=1`]);
  });

  it('follows GitHub\'s pages of 100 only as far as the limit needs', async () => {
    const { scope, github } = setup();
    const { number, files: total } = fx.widePull;
    const pages = async (limit: number) => {
      const before = (await scope.stats()).requests.length;
      const listed = await github.pullRequestFiles(number, { limit });
      const paths = (await scope.stats()).requests.slice(before).map((request) => request.path.replace(/^.*\?/, ''));
      if (listed.status !== 'ok') throw new Error(listed.reason);
      return { count: listed.files.length, complete: listed.complete, first: listed.files[0]?.path, pages: paths };
    };
    expect(await pages(100)).toEqual({ count: 100, complete: false, first: 'wide/file-000.txt', pages: ['per_page=100&page=1'] });
    expect(await pages(120)).toEqual({ count: 120, complete: false, first: 'wide/file-000.txt', pages: ['per_page=100&page=1', 'per_page=100&page=2'] });
    expect(await pages(500)).toEqual({ count: total, complete: true, first: 'wide/file-000.txt', pages: ['per_page=100&page=1', 'per_page=100&page=2'] });
  });

  it('reports a pull request GitHub does not have, and a failing API, as failures with reasons', async () => {
    const { scope, github } = setup();
    expect(await github.pullRequestFiles(999, { limit: 10 })).toEqual({
      status: 'failed',
      reason: `not found (404): the files of pull request #999 of ${fx.owner}/${fx.repo}`,
    });
    await scope.configure({ faults: [{ status: 502, times: 10, match: '/files' }] });
    expect(await github.pullRequestFiles(fx.pull.number, { limit: 10 })).toEqual({
      status: 'failed',
      reason: `GitHub API error (502) for the files of pull request #${fx.pull.number} of ${fx.owner}/${fx.repo}, still failing after retries`,
    });
  });

  it('throws the caller abort instead of reporting a failure', async () => {
    const { github } = setup();
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(github.pullRequestFiles(fx.pull.number, { limit: 10, signal: controller.signal })).rejects.toThrow('deadline');
  });
});
