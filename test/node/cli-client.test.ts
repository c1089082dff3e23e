/**
 * `--client` on `groundwork context` (in process) and `groundwork freshness`: the complement, the
 * verdicts per client in --json, the matrix in --summary, and an unknown client as a usage error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFreshnessCommand } from '../../src/cli/freshness-command.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { ofProvider, runCli, runCliJson, userMessage } from './cli-support.ts';

let repo: GitFixture;
let first: string;

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Root\nRun npm test.\n');
  repo.write('CLAUDE.md', '# Claude\nKeep commits small.\n');
  repo.write('packages/api/AGENTS.md', '# API\nValidate with zod.\n');
  repo.write('packages/web/AGENTS.md', '# Web\nUse the design tokens.\n');
  repo.write('packages/web/src/app.ts', 'export {};\n');
  first = repo.commitAll('rules');
});
afterAll(() => repo.remove());

describe('groundwork context --client', () => {
  it('gives Codex only what it does not load itself, each entry saying why', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api', '--path', 'packages/web/src/app.ts', '--client', 'codex']);
    expect(turn.client).toBe('codex');
    const { entries, outcome } = ofProvider(turn, 'rules');
    expect(entries.map((entry) => [entry.title, entry.why])).toEqual([
      ['Rule files Codex loads itself', undefined],
      ['packages/web/AGENTS.md', 'Codex reads AGENTS.md files only from the root down to packages/api, once at start'],
    ]);
    expect(userMessage(turn)).not.toContain('Validate with zod.');
    expect(outcome?.verdicts?.map((verdict) => [verdict.path, verdict.verdict])).toEqual([
      ['AGENTS.md', 'loaded-by-client'],
      ['packages/api/AGENTS.md', 'loaded-by-client'],
      ['packages/web/AGENTS.md', 'applied'],
      ['CLAUDE.md', 'shadowed'],
    ]);
  });

  it('prints the files-by-clients matrix and why for the client in --summary', async () => {
    const run = await runCli(['--repo', repo.dir, '--cwd', 'packages/api', '--client', 'claude-code@2.1.332', '--summary']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^commit [0-9a-f]{40}  agent entry  client claude-code@2\.1\.332  digest sha256:/);
    expect(run.stdout).toMatch(/^ {2}file +none +codex +claude-code +gemini-cli +copilot +cursor$/m);
    expect(run.stdout).toMatch(/^ {2}CLAUDE\.md +shadowed +not seen +loaded +not seen +not seen +not seen$/m);
    expect(run.stdout).toMatch(/^ {2}given +AGENTS\.md +Claude Code reads CLAUDE\.md instead$/m);
  });

  it('refuses an unknown client with exit 2, naming the option and the known clients', async () => {
    const run = await runCli(['--repo', repo.dir, '--client', 'vim']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('groundwork: --client: unknown client "vim": must be one of none, codex, claude-code, gemini-cli, copilot, cursor');
    expect(run.stdout).toBe('');
  });
});

describe('groundwork freshness --client', () => {
  it('compares the files the client loaded itself too: Codex read its own copy of AGENTS.md at start, so an edit is news to it', async () => {
    repo.write('AGENTS.md', '# Root\nRun npm test, then lint.\n');
    repo.commitAll('root rules change');
    for (const client of [['--client', 'codex'], []]) {
      const out: string[] = [];
      const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => out.push(text) };
      expect(await runFreshnessCommand(['--repo', repo.dir, '--since', first, ...client, '--json'], io), client.join(' ')).toBe(3);
      const report = JSON.parse(out.join('')) as { sources: Array<{ path: string; status: string }> };
      expect(report.sources.filter((source) => source.status !== 'unchanged').map((source) => [source.path, source.status]), client.join(' ')).toEqual([['AGENTS.md', 'changed']]);
    }
  });
});
