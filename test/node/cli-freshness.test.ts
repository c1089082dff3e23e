import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFreshnessCommand } from '../../src/cli/freshness-command.ts';
import { FreshnessReportSchema } from '../../src/freshness/report.ts';
import { gitBlobOid } from '../support/memory-tree.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { HEAD_RULES, PIN_RULES, ruleSetLines } from '../support/rule-set-changes.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';

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

describe('groundwork freshness: the rule set that applies', () => {
  const made: GitFixture[] = [];
  const repoOf = (files: Record<string, string>) => {
    const fixture = createGitRepo();
    made.push(fixture);
    for (const [path, text] of Object.entries(files)) fixture.write(path, text);
    return { fixture, first: fixture.commitAll('one') };
  };
  afterAll(() => {
    for (const fixture of made) fixture.remove();
  });

  it('reproduces the issue exactly: an AGENTS.override.md for the working directory is a change, exit 3', async () => {
    // git init; echo ROOT > AGENTS.md; mkdir src; echo SRC > src/AGENTS.md; git add -A; git commit -m one
    const { fixture, first } = repoOf({ 'AGENTS.md': 'ROOT\n', 'src/AGENTS.md': 'SRC\n' });
    // echo OVERRIDE > src/AGENTS.override.md; mkdir src/sub; echo SUB > src/sub/AGENTS.md; git add -A; git commit -m two
    fixture.write('src/AGENTS.override.md', 'OVERRIDE\n');
    fixture.write('src/sub/AGENTS.md', 'SUB\n');
    const second = fixture.commitAll('two');
    const { code, stdout, stderr } = await run(['--repo', fixture.dir, '--since', 'HEAD~1', '--cwd', 'src']);
    expect(stderr).toBe('');
    expect(stdout).toBe(`HEAD moved ${first.slice(0, 7)} -> ${second.slice(0, 7)}\n- src/AGENTS.override.md added: it replaces src/AGENTS.md for src\n- AGENTS.md: unchanged\n`);
    expect(code).toBe(3);
  });

  it('is never "no repository source" and exit 0 when the new head has rule files that apply', async () => {
    const { fixture, first } = repoOf({ 'README.md': 'Agent Skills.\n' });
    fixture.write('AGENTS.md', 'Run the checks.\n');
    const second = fixture.commitAll('rules');
    const { code, stdout } = await run(['--repo', fixture.dir, '--since', first]);
    expect(stdout).toBe(`HEAD moved ${first.slice(0, 7)} -> ${second.slice(0, 7)}\n- AGENTS.md added: it applies to .\n`);
    expect(code).toBe(3);
    // Nothing at either commit: that one line, and exit 0.
    const { fixture: bare, first: only } = repoOf({ 'README.md': 'Nothing.\n' });
    bare.write('README.md', 'Still nothing.\n');
    bare.commitAll('readme');
    expect(await run(['--repo', bare.dir, '--since', only])).toMatchObject({ code: 0, stdout: expect.stringContaining('- no repository source in the context at this commit, and no rule file that applies at either commit\n') });
  });

  it('with --client, says what the client loads itself and what Groundwork must give it, in words and --json (issue 50)', async () => {
    // A monorepo: the root's rules and a package's; then a CLAUDE.md beside the root AGENTS.md, and a package off the working directory's chain.
    const { fixture, first } = repoOf({ 'AGENTS.md': 'Run npm test.\n', 'packages/api/AGENTS.md': 'Validate with zod.\n', 'packages/api/src/index.ts': 'export {};\n' });
    fixture.write('CLAUDE.md', 'Claude: keep commits small.\n');
    fixture.write('packages/web/AGENTS.md', 'Web rules.\n');
    const second = fixture.commitAll('claude');
    const moved = `HEAD moved ${first.slice(0, 7)} -> ${second.slice(0, 7)}\n`;
    const claude = await run(['--repo', fixture.dir, '--since', first, '--cwd', 'packages/api', '--client', 'claude-code']);
    expect(claude.stdout).toBe(
      `${moved}- AGENTS.md is now given by Groundwork: it applies to packages/api; Claude Code reads CLAUDE.md instead\n` +
        '- CLAUDE.md added: it applies to packages/api; Claude Code loads it itself at start\n' +
        '- packages/api/AGENTS.md is now given by Groundwork: it applies to packages/api; Claude Code reads CLAUDE.md, not AGENTS.md, when one is on its way (CLAUDE.md)\n',
    );
    expect(claude.code).toBe(3);
    const json = await run(['--repo', fixture.dir, '--since', first, '--cwd', 'packages/api', '--client', 'claude-code', '--json']);
    const report = FreshnessReportSchema.parse(JSON.parse(json.stdout));
    expect(report.ruleSet).toMatchObject({ status: 'changed', client: 'claude-code' });
    expect(report.ruleSet?.changes.map((change) => [change.path, change.verdict ?? null, change.currentVerdict])).toEqual([
      ['AGENTS.md', 'loaded-by-client', 'applied'],
      ['CLAUDE.md', null, 'loaded-by-client'],
      ['packages/api/AGENTS.md', 'loaded-by-client', 'applied'],
    ]);
    // Codex never reads CLAUDE.md: what it loads is as it was, and the new file is only shadowed.
    const codex = await run(['--repo', fixture.dir, '--since', first, '--cwd', 'packages/api', '--client', 'codex']);
    expect(codex.stdout).toBe(`${moved}- CLAUDE.md added: shadowed by AGENTS.md in ., which the client loads itself instead\n- packages/api/AGENTS.md: unchanged\n`);
    expect(codex.code).toBe(3);
    // A rule off the chain of the working directory changes nothing for any client: exit 0.
    fixture.write('packages/web/CLAUDE.md', 'More web rules.\n');
    fixture.commitAll('web');
    expect(await run(['--repo', fixture.dir, '--since', 'HEAD~1', '--cwd', 'packages/api', '--client', 'claude-code'])).toMatchObject({ code: 0 });
  });

  it('names every kind of change with its reason, exit 3, and the same in --json', async () => {
    const { fixture, first } = repoOf({ 'AGENTS.md': 'Root.\n', '.agents/skills/tdd/SKILL.md': '---\nname: tdd\ndescription: Test first.\n---\nRed.\n', ...PIN_RULES });
    for (const [path, text] of Object.entries(HEAD_RULES)) {
      if (text === null) fixture.git('rm', '--quiet', path);
      else fixture.write(path, text);
    }
    fixture.commitAll('every kind');
    const { code, stdout } = await run(['--repo', fixture.dir, '--since', first, '--cwd', 'src']);
    expect(code).toBe(3);
    const lines = stdout.split('\n');
    expect(lines.slice(1, 12)).toEqual(ruleSetLines('src', 'the working directory src').map((line) => `- ${line}`));
    expect(lines).toContain('- .claude/rules/style.md: changed (blob ' + (await gitBlobOid(PIN_RULES['.claude/rules/style.md'] ?? '')).slice(0, 7) + ' -> ' + (await gitBlobOid(HEAD_RULES['.claude/rules/style.md'] ?? '')).slice(0, 7) + ')');
    // A given file a change already names is not repeated as a source line.
    expect(lines.filter((line) => line.startsWith('- src/AGENTS.md'))).toEqual([]);
    const json = await run(['--repo', fixture.dir, '--since', first, '--cwd', 'src', '--json']);
    const report = FreshnessReportSchema.parse(JSON.parse(json.stdout));
    expect(report.ruleSet?.changes.map((change) => change.line)).toEqual(ruleSetLines('src', 'the working directory src'));
    expect(json.code).toBe(3);
  });

  it('exits 0 when the head moved but the rule set and every given source are unchanged', async () => {
    const { fixture, first } = repoOf({ 'AGENTS.md': 'Root.\n', 'src/AGENTS.md': 'Src.\n' });
    fixture.write('README.md', 'Docs.\n');
    fixture.write('docs/AGENTS.md', 'Docs rules, off the chain of src.\n');
    fixture.commitAll('docs');
    const { code, stdout } = await run(['--repo', fixture.dir, '--since', first, '--cwd', 'src']);
    expect(stdout).toContain('- AGENTS.md: unchanged\n- src/AGENTS.md: unchanged\n');
    expect(code).toBe(0);
  });

  it('exits 1 naming why when the rule set at the new head cannot be computed, whatever the given sources say', async () => {
    const { fixture, first } = repoOf({ 'AGENTS.md': 'Root.\n' });
    fixture.write('.groundwork.yml', 'providers:\n  rules:\n    imports: false\n');
    const second = fixture.commitAll('settings');
    // The head's settings file cannot be read: its rule set is unknown, never "unchanged".
    const openSource = (root: string): RepositorySource => {
      const local = createLocalGitSource(root);
      return {
        repository: local.repository,
        resolve: (ref, options) => local.resolve(ref, options),
        snapshot(commit, options) {
          const snapshot = local.snapshot(commit, options);
          if (commit !== second) return snapshot;
          return { ...snapshot, uri: (path) => snapshot.uri(path), list: (dir, o) => snapshot.list(dir, o), commitInfo: (o) => snapshot.commitInfo(o), read: async (path, o) => (path === '.groundwork.yml' ? { status: 'failed', path, reason: 'the disk is gone' } : snapshot.read(path, o)) };
        },
      };
    };
    let stdout = '';
    const code = await runFreshnessCommand(['--repo', fixture.dir, '--since', first], { stdout: (t) => (stdout += t), stderr: () => {} }, { openSource, now: () => Date.parse('2026-11-20T12:00:00Z') });
    expect(stdout).toContain(`- the rules that apply could not be compared (the rule set at ${second.slice(0, 7)} could not be computed: .groundwork.yml could not be read: the disk is gone)`);
    expect(stdout).toContain('- AGENTS.md: unchanged');
    expect(code).toBe(1);
  });
});
