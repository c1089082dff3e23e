import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckCommand } from '../../src/cli/check-command.ts';
import { CheckResultSchema } from '../../src/checks/result.ts';
import { createGitRepo, runGit, type GitFixture } from '../support/git-fixtures.ts';
import { startGitHubApiServer } from '../support/github-api-server.ts';

const NOW = Date.parse('2026-11-20T18:02:00Z');
const TOKEN = 'ghp_cli_check_token';

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCheckCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, { now: () => NOW, env });
  return { code, stdout, stderr };
}

describe('groundwork check push', () => {
  let root: string;
  let repo: GitFixture;
  let other: GitFixture;
  let first: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'groundwork-check-'));
    runGit(root, ['init', '--quiet', '--bare', '--initial-branch=main', 'remote.git']);
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\n');
    first = repo.commitAll('first');
    repo.git('remote', 'add', 'origin', join(root, 'remote.git'));
    repo.git('push', '--quiet', '-u', 'origin', 'main');
    // Someone else's clone of the same remote.
    other = createGitRepo();
    other.git('remote', 'add', 'origin', join(root, 'remote.git'));
    other.git('fetch', '--quiet', 'origin');
    other.git('checkout', '--quiet', '-B', 'main', 'origin/main');
  });
  afterAll(() => {
    repo.remove();
    other.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it('says go while the upstream, as the last fetch saw it, is the commit the work was built on, and says it did not fetch', async () => {
    const { code, stdout, stderr } = await run(['push', '--repo', repo.dir, '--since', 'HEAD']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `push on ${first.slice(0, 7)} at 2026-11-20 18:02 UTC: go, origin/main is still at ${first.slice(0, 7)} in the local repository, the commit you built on`,
        '- as the last fetch recorded origin/main: this did not fetch (git fetch, then check again, to see pushes since)',
        '',
      ].join('\n'),
    );
  });

  it('stays go until a fetch sees what someone else pushed, then says stop and exits 3', async () => {
    other.write('README.md', 'Pushed by someone else.\n');
    const theirs = other.commitAll('theirs');
    other.git('push', '--quiet', 'origin', 'main');
    expect((await run(['push', '--repo', repo.dir, '--since', first])).code).toBe(0);

    repo.git('fetch', '--quiet', 'origin');
    const { code, stdout } = await run(['push', '--repo', repo.dir, '--since', first, '--json']);
    expect(code).toBe(3);
    const answer = CheckResultSchema.parse(JSON.parse(stdout));
    expect(answer).toMatchObject({
      action: 'push',
      verdict: 'stop',
      checkedAt: '2026-11-20T18:02:00.000Z',
      subject: { repository: `file://${repo.dir}`, ref: 'origin/main', commit: first },
      reasons: [`origin/main moved: it is at ${theirs.slice(0, 7)} in the local repository, not ${first.slice(0, 7)} you built on`, expect.stringContaining('this did not fetch')],
      details: { branch: 'origin/main', builtOn: first, remote: theirs, moved: true },
    });
  });

  it('says unknown and exits 1 for a branch without an upstream, or a detached HEAD', async () => {
    repo.git('branch', 'lonely');
    const lonely = await run(['push', '--repo', repo.dir, '--since', first, '--branch', 'lonely']);
    expect(lonely.code).toBe(1);
    expect(lonely.stdout).toContain(': unknown, lonely has no upstream (branch.lonely.remote and branch.lonely.merge are not set): nothing to compare with');
    repo.git('checkout', '--quiet', '--detach', 'HEAD');
    try {
      const detached = await run(['push', '--repo', repo.dir, '--since', first]);
      expect(detached.code).toBe(1);
      expect(detached.stdout).toContain('HEAD is not on a branch (detached): name the branch with --branch');
    } finally {
      repo.git('checkout', '--quiet', 'main');
    }
  });

  it('exits 2 for bad usage, naming the option, and 1 when --since names no commit', async () => {
    expect(await run(['deploy'])).toMatchObject({ code: 2, stderr: expect.stringContaining('groundwork check: unknown action "deploy": one of push, report-ci') });
    expect(await run(['push', '--repo', repo.dir])).toMatchObject({ code: 2, stderr: expect.stringContaining('--since: required: the commit your work was built on') });
    expect(await run(['push', '--repo', repo.dir, '--since', 'HEAD', '--github', 'acme/widgets'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--github: applies to report-ci only') });
    expect(await run(['report-ci', '--since', 'HEAD', '--github', 'not a repo'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--github: must be OWNER/NAME of a GitHub repository') });
    expect(await run(['push', '--repo', repo.dir, '--since', 'HEAD', '--bogus'])).toMatchObject({ code: 2 });
    expect(await run(['push', '--repo', repo.dir, '--since', 'main..other'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--since:') });
    expect(await run(['push', '--repo', repo.dir, '--since', 'no-such-commit'])).toMatchObject({ code: 1, stderr: expect.stringContaining('--since: no-such-commit does not name a commit') });
    expect(await run(['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: groundwork check push|report-ci --since COMMIT') });
  });
});

describe('groundwork check report-ci', () => {
  let repo: GitFixture;
  let first: string;
  let head: string;
  let server: { port: number; close(): Promise<void> };
  const env = () => ({ GITHUB_TOKEN: TOKEN, GITHUB_API_URL: `http://127.0.0.1:${server.port}` });
  const setChecks = async (sha: string, checks: unknown) => {
    const response = await fetch(`http://127.0.0.1:${server.port}/__github/checks/${sha}`, { method: 'POST', body: JSON.stringify(checks) });
    expect(response.status).toBe(204);
  };

  beforeAll(async () => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\n');
    first = repo.commitAll('first');
    repo.write('src/app.ts', 'export {};\n');
    head = repo.commitAll('second');
    // GitHub, as a local server answering from this very repository.
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    server = await startGitHubApiServer({
      repoDir: repo.dir,
      owner: 'acme',
      repo: 'widgets',
      appId: '1',
      installationId: 1,
      appPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      personalToken: TOKEN,
    });
  });
  afterAll(async () => {
    await server.close();
    repo.remove();
  });

  it('is unknown locally, exit 1, without --github or without a token', async () => {
    const local = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD']);
    expect(local.code).toBe(1);
    expect(local.stdout).toBe(`report-ci on ${head.slice(0, 7)} at 2026-11-20 18:02 UTC: unknown, report-ci reads the checks GitHub has for the commit: name the repository with --github OWNER/NAME (and a token in GITHUB_TOKEN)\n`);
    const tokenless = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD', '--github', 'acme/widgets']);
    expect(tokenless.code).toBe(1);
    expect(tokenless.stdout).toContain('unknown, report-ci reads acme/widgets on GitHub: set GITHUB_TOKEN to a token that may read its checks');
  });

  it('reads the checks GitHub has for the commit: go (0) when all passed on the head, stop (3) naming a failure or a newer head', async () => {
    await setChecks(head, { checkRuns: [{ name: 'build', conclusion: 'success' }], statuses: [{ context: 'ci/lint', state: 'success' }] });
    const green = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD', '--github', 'acme/widgets', '--branch', 'main'], env());
    expect(green.stderr).toBe('');
    expect(green.stdout).toBe([`report-ci on ${head.slice(0, 7)} at 2026-11-20 18:02 UTC: go, all 2 checks on ${head.slice(0, 7)} passed`, `- ${head.slice(0, 7)} is still the head of main`, ''].join('\n'));
    expect(green.code).toBe(0);

    await setChecks(head, { checkRuns: [{ name: 'build', conclusion: 'failure' }] });
    const red = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD', '--github', 'acme/widgets', '--branch', 'main', '--json'], env());
    expect(red.code).toBe(3);
    expect(CheckResultSchema.parse(JSON.parse(red.stdout))).toMatchObject({ verdict: 'stop', subject: { repository: 'acme/widgets', ref: 'main', commit: head }, reasons: ['build failed', `${head.slice(0, 7)} is still the head of main`] });

    await setChecks(first, { checkRuns: [{ name: 'build', conclusion: 'success' }] });
    const old = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD~1', '--github', 'acme/widgets', '--branch', 'main'], env());
    expect(old.code).toBe(3);
    expect(old.stdout).toContain(`: stop, a newer head ${head.slice(0, 7)} is on main: CI for ${first.slice(0, 7)} says nothing about it`);
  });

  it('is unknown (1) when GitHub counts more check runs or statuses than it lists, saying how many of each it counted and listed', async () => {
    await setChecks(head, { checkRuns: [{ name: 'build', conclusion: 'success' }], checkRunsTotal: 5, statuses: [{ context: 'ci/lint', state: 'success' }] });
    const short = head.slice(0, 7);
    const runsOnly = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD', '--github', 'acme/widgets', '--branch', 'main'], env());
    expect(runsOnly.code).toBe(1);
    expect(runsOnly.stdout).toBe(
      [`report-ci on ${short} at 2026-11-20 18:02 UTC: unknown, GitHub counts 5 check runs on ${short} but listed 1: the other 4 could not be read`, `- all 2 checks read on ${short} passed`, `- ${short} is still the head of main`, ''].join('\n'),
    );
    // No page size in the words (the short commit id, made anew each run, may hold any digits).
    expect(runsOnly.stdout.replaceAll(short, '')).not.toContain('300');

    await setChecks(head, { checkRuns: [{ name: 'build', conclusion: 'success' }], checkRunsTotal: 3, statuses: [{ context: 'ci/lint', state: 'success' }], statusesTotal: 2 });
    const both = await run(['report-ci', '--repo', repo.dir, '--since', 'HEAD', '--github', 'acme/widgets', '--branch', 'main', '--json'], env());
    expect(both.code).toBe(1);
    expect(CheckResultSchema.parse(JSON.parse(both.stdout)).reasons.slice(0, 2)).toEqual([
      `GitHub counts 3 check runs on ${short} but listed 1: the other 2 could not be read`,
      `GitHub counts 2 commit statuses on ${short} but listed 1: the other 1 could not be read`,
    ]);
  });
});
