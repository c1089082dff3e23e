import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFreshnessCommand } from '../../src/cli/freshness-command.ts';
import { parseAncestry, walkAncestry } from '../../src/sources/git/ancestry.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

describe('ancestry suffixes on a local repository (HEAD~1, main^2)', () => {
  let repo: GitFixture;

  beforeAll(() => {
    // a - b - m (main), with c on side merged into m; v1 an annotated tag on b.
    repo = createGitRepo();
    repo.write('AGENTS.md', '# a\n');
    repo.commitAll('a');
    repo.write('AGENTS.md', '# b\n');
    repo.commitAll('b');
    repo.git('tag', '-a', 'v1', '-m', 'v1');
    repo.git('checkout', '--quiet', '-b', 'side', 'HEAD~1');
    repo.write('side.md', 'c\n');
    repo.commitAll('c');
    repo.git('checkout', '--quiet', 'main');
    repo.git('merge', '--quiet', '--no-ff', '-m', 'm', 'side');
  });
  afterAll(() => repo.remove());

  it('resolves every expression to the commit git rev-parse names', async () => {
    const source = createLocalGitSource(repo.dir);
    const short = repo.git('rev-parse', '--short=8', 'HEAD');
    for (const rev of ['HEAD~1', 'HEAD^', 'HEAD^1', 'HEAD^2', 'HEAD~2', 'HEAD^^', 'HEAD^0', 'main~1^0', 'HEAD^2~1', 'v1~1', 'v1^0', `${short}~1`, 'side^']) {
      expect(await source.resolve(rev), rev).toEqual({ status: 'ok', commit: repo.git('rev-parse', `${rev}^{commit}`) });
    }
  });

  it('says missing past the history, and refuses an expression without a revision or beyond the bound', async () => {
    const source = createLocalGitSource(repo.dir);
    expect(await source.resolve('HEAD~3')).toEqual({ status: 'missing', ref: 'HEAD~3' });
    expect(await source.resolve('HEAD^3')).toEqual({ status: 'missing', ref: 'HEAD^3' });
    expect(await source.resolve('nope~1')).toEqual({ status: 'missing', ref: 'nope~1' });
    expect(await source.resolve('~1')).toMatchObject({ status: 'failed', reason: expect.stringContaining('no revision before ~1') });
    expect(await source.resolve('HEAD~999999')).toMatchObject({ status: 'failed', reason: expect.stringContaining('more than 10000 steps') });
    expect(await source.resolve('HEAD~5000~5001')).toMatchObject({ status: 'failed', reason: expect.stringContaining('more than 10000 steps') });
    expect(await source.resolve('ma:in~1')).toMatchObject({ status: 'failed', reason: expect.stringContaining('invalid ref name') });
  });

  it('walks first parents for ~ and the n-th parent for ^n', () => {
    const graph: Record<string, string[]> = { m: ['b', 'c'], b: ['a'], c: ['a'], a: [] };
    const at = (rev: string) => {
      const parsed = parseAncestry(rev);
      if (!parsed || 'error' in parsed) throw new Error(rev);
      return walkAncestry(parsed.base, parsed.steps, (id) => graph[id] ?? []);
    };
    expect([at('m~1'), at('m^2'), at('m^2~1'), at('m~3'), at('m^0')]).toEqual(['b', 'c', 'a', undefined, 'm']);
    expect(parseAncestry('main')).toBeUndefined();
  });

  it('calls a malformed --since or --ref a usage error naming the option (exit 2), before reading anything', async () => {
    for (const [args, message] of [
      [['--since', 'HEAD~99999'], '--since: "HEAD~99999" is more than 10000 steps'],
      [['--since', '~2'], '--since: "~2" has no revision before ~2'],
      [['--since', 'a..b'], '--since: invalid ref name: "a..b"'],
      [['--since', 'HEAD~1', '--ref', 'ma:in'], '--ref: invalid ref name: "ma:in"'],
      [['--since', 'HEAD~1', '--ref', '^1'], '--ref: "^1" has no revision before ^1'],
    ] as const) {
      let stderr = '';
      const code = await runFreshnessCommand(['--repo', repo.dir, ...args], { stdout: () => undefined, stderr: (t) => (stderr += t) });
      expect([code, stderr.trim()]).toEqual([2, `groundwork freshness: ${message}`]);
    }
  });

  it('lets groundwork freshness compare from HEAD~1', async () => {
    let stdout = '';
    const code = await runFreshnessCommand(['--repo', repo.dir, '--since', 'HEAD~2'], { stdout: (t) => (stdout += t), stderr: () => undefined });
    expect(code).toBe(3);
    expect(stdout).toContain(`HEAD moved ${repo.git('rev-parse', '--short=7', 'HEAD~2')} -> ${repo.git('rev-parse', '--short=7', 'HEAD')}`);
    expect(stdout).toContain('- AGENTS.md: changed');
  });

  it('compares with an ancestry given as --ref', async () => {
    let stdout = '';
    const code = await runFreshnessCommand(['--repo', repo.dir, '--since', 'HEAD~2', '--ref', 'HEAD^2', '--json'], { stdout: (t) => (stdout += t), stderr: () => undefined });
    // HEAD^2 (c) only added side.md: AGENTS.md is as it was at a.
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ref: 'HEAD^2', current: repo.git('rev-parse', 'HEAD^2'), moved: true });
  });
});
