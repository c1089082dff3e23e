import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFreshnessCommand } from '../../src/cli/freshness-command.ts';
import { FreshnessReportSchema } from '../../src/freshness/report.ts';
import { gitBlobOid } from '../support/memory-tree.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runFreshnessCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  return { code, stdout, stderr };
}

describe('groundwork freshness', () => {
  let repo: GitFixture;
  let first: string;
  let second: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\n');
    repo.write('api/AGENTS.md', '# API rules\n');
    repo.write('.agents/skills/tdd/SKILL.md', '---\nname: tdd\ndescription: Test first.\n---\nRed, green.\n');
    repo.write('.agents/skills/docs/SKILL.md', '---\nname: docs\ndescription: Write docs.\n---\nExplain.\n');
    first = repo.commitAll('first');
    repo.write('AGENTS.md', '# Rules\n\nRun the linter.\n');
    repo.git('rm', '--quiet', '-r', '.agents/skills/tdd');
    second = repo.commitAll('second');
    repo.git('branch', 'old', first);
  });
  afterAll(() => repo.remove());

  it('names what changed since the commit a context was read at, and exits 3', async () => {
    const { code, stdout, stderr } = await run(['--repo', repo.dir, '--since', first, '--cwd', 'api', '--skill', 'tdd']);
    expect(stderr).toBe('');
    expect(code).toBe(3);
    expect(stdout.split('\n')).toEqual([
      `HEAD moved ${first.slice(0, 7)} -> ${second.slice(0, 7)}`,
      '- skills index (.agents/skills): changed: skill tdd deleted',
      `- AGENTS.md: changed (blob ${(await gitBlobOid('# Rules\n')).slice(0, 7)} -> ${(await gitBlobOid('# Rules\n\nRun the linter.\n')).slice(0, 7)})`,
      '- skill tdd (.agents/skills/tdd/SKILL.md): deleted',
      '- api/AGENTS.md: unchanged',
      '',
    ]);
  });

  it('prints the report the read-back endpoint answers with --json', async () => {
    const { code, stdout } = await run(['--repo', repo.dir, '--since', first, '--json']);
    expect(code).toBe(3);
    const report = FreshnessReportSchema.parse(JSON.parse(stdout));
    expect(report).toMatchObject({ commit: first, ref: 'HEAD', current: second, moved: true, checkedAt: '2026-11-20T12:00:00.000Z' });
    expect(report.sources.map((s) => [s.provider, s.kind, s.path, s.status])).toEqual([
      ['rules', 'file', 'AGENTS.md', 'changed'],
      ['skills', 'skills-index', '.agents/skills', 'changed'],
    ]);
  });

  it('exits 0 when nothing changed, for any ref the user names', async () => {
    expect(await run(['--repo', repo.dir, '--since', second])).toMatchObject({ code: 0, stdout: `HEAD is still at ${second.slice(0, 7)}\n- skills index (.agents/skills): unchanged\n- AGENTS.md: unchanged\n` });
    expect((await run(['--repo', repo.dir, '--since', first, '--ref', 'old'])).code).toBe(0);
    expect((await run(['--repo', repo.dir, '--since', first, '--ref', first])).code).toBe(0);
  });

  it('reads committed objects only: an uncommitted edit changes nothing', async () => {
    repo.write('AGENTS.md', '# Uncommitted\n');
    try {
      expect((await run(['--repo', repo.dir, '--since', second])).code).toBe(0);
    } finally {
      repo.git('checkout', '--quiet', '--', 'AGENTS.md');
    }
  });

  it('exits 1 naming what could not be read, and 2 for bad usage', async () => {
    const unknown = await run(['--repo', repo.dir, '--since', 'no-such-commit']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--since: no-such-commit does not name a commit');
    const badRef = await run(['--repo', repo.dir, '--since', first, '--ref', 'no-such-branch']);
    expect(badRef.code).toBe(1);
    expect(badRef.stdout).toMatch(/^no-such-branch: could not be resolved \(no-such-branch does not name a commit/);
    const missing = await run(['--repo', repo.dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^groundwork freshness: --since: required/);
    expect((await run(['--since', first, '--nope'])).code).toBe(2);
  });

  it('runs as a real process through the bin entry', async () => {
    const child = promisify(execFile)(process.execPath, ['src/cli/main.ts', 'freshness', '--repo', repo.dir, '--since', second, '--json']);
    const { stdout } = await child;
    expect(FreshnessReportSchema.parse(JSON.parse(stdout))).toMatchObject({ commit: second, moved: false });
    await expect(promisify(execFile)(process.execPath, ['src/cli/main.ts', 'freshness', '--repo', repo.dir, '--since', first])).rejects.toMatchObject({ code: 3 });
  });
});
