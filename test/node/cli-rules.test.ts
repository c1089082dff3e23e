/**
 * `groundwork rules`: the matrix of a repository-shaped git repository, whole or for paths, for
 * some clients, as an 80-column view naming every file once or as JSON in the shared schema; exit
 * 1 on a lint of severity error (CI), 2 on bad usage; the built bin answers the same.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRulesCommand } from '../../src/cli/rules-command.ts';
import { RulesMatrixSchema } from '../../src/context/rules-matrix.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

let repo: GitFixture;
let clean: GitFixture;

async function rules(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runRulesCommand(argv, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Root\nRun npm test.\n');
  repo.write('CLAUDE.md', '# Root\nRun pnpm test.\nSee @docs/missing.md.\n');
  repo.write('packages/api/AGENTS.md', '# API\nValidate with zod.\n');
  repo.write('packages/web/GEMINI.md', '# Web\n');
  repo.write('packages/web/src/app.ts', 'export {};\n');
  repo.write('packages/a-directory-with-a-rather-long-name/and-a-nested-one-that-goes-on/AGENTS.md', 'long\n');
  repo.write('.cursor/rules/web.mdc', '---\nglobs: packages/web/**/*.tsx\n---\nweb\n');
  repo.write('.github/instructions/api.instructions.md', '---\napplyTo:\n  - "packages/api/**"\n---\napi\n');
  repo.commitAll('rules');
  clean = createGitRepo();
  clean.write('AGENTS.md', '# Root\n');
  clean.write('src/AGENTS.md', '# Src\n');
  clean.commitAll('clean');
});
afterAll(() => {
  repo.remove();
  clean.remove();
});

describe('groundwork rules', () => {
  it('prints the whole repository\'s matrix in 80 columns, every file once, then the lints; exit 1 on an error lint', async () => {
    const run = await rules(['--repo', repo.dir]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    for (const path of ['AGENTS.md', 'CLAUDE.md', 'packages/api/AGENTS.md', 'packages/web/GEMINI.md', '.cursor/rules/web.mdc', '.github/instructions/api.instructions.md']) {
      expect(lines.filter((line) => / (\S+)$/.exec(line)?.[1] === path)).toHaveLength(1);
    }
    expect(run.stdout).toContain('and-a-nested-one-that-goes-on/AGENTS.md');
    expect(lines[0]).toMatch(/^\d+ rule files at HEAD \([0-9a-f]{12}\) for the whole repository; agents start in \.$/);
    expect(run.stdout).toContain('gw cx cc gm cp cu  file');
    expect(run.stdout).toContain('\nG  L  G  G  L  L   AGENTS.md\n');
    expect(run.stdout).toContain('\ns  ·  L  ·  L  ·   CLAUDE.md\n');
    expect(run.stdout).toMatch(/lints: \d+ errors?, \d+ warnings?/);
    expect(run.stdout).toContain('error   CLAUDE.md:3  import-unresolved (claude-code)');
    expect(run.stdout).toContain('error   .cursor/rules/web.mdc:2  glob-matches-nothing (cursor)');
    expect(run.stdout).toContain('error   .github/instructions/api.instructions.md:2  frontmatter-field');
    expect(run.stdout).toContain('warning AGENTS.md  directory-disagreement (codex, claude-code, cursor)');
  });

  it('--json is the shared matrix schema; --path narrows to the paths, --client to the agents named', async () => {
    const run = await rules(['--repo', repo.dir, '--path', 'packages/api/src/x.ts', '--client', 'codex', '--client', 'claude-code', '--json']);
    const matrix = RulesMatrixSchema.parse(JSON.parse(run.stdout));
    expect(matrix.clients).toEqual(['codex', 'claude-code']);
    expect(matrix.paths).toEqual(['packages/api/src/x.ts']);
    expect(matrix.files.map((file) => file.path)).not.toContain('packages/web/GEMINI.md');
    expect(matrix.files.find((file) => file.path === 'packages/api/AGENTS.md')?.clients?.map((cell) => cell.client)).toEqual(['none', 'codex', 'claude-code']);
    expect(matrix.lints.every((lint) => lint.clients.every((client) => client === 'codex' || client === 'claude-code'))).toBe(true);
    expect(matrix.lints.map((lint) => lint.code)).toContain('import-unresolved');
    expect(run.code).toBe(1);
  });

  it('judges for the agents the repository names in .groundwork.yml (rules.clients) unless --client names others', async () => {
    // Only Claude Code works on this repository: Cursor's broken glob is none of its business.
    const named = createGitRepo();
    try {
      named.write('AGENTS.md', '# Root\n');
      named.write('CLAUDE.md', '# Root\nSee @docs/missing.md.\n');
      named.write('.cursor/rules/web.mdc', '---\nglobs: nowhere/**/*.tsx\n---\nweb\n');
      named.write('.groundwork.yml', 'providers:\n  rules:\n    clients: [claude-code]\n');
      named.commitAll('claude only');
      const own = RulesMatrixSchema.parse(JSON.parse((await rules(['--repo', named.dir, '--json'])).stdout));
      expect(own.clients).toEqual(['claude-code']);
      expect(own.files.find((file) => file.path === 'CLAUDE.md')?.clients?.map((cell) => cell.client)).toEqual(['none', 'claude-code']);
      expect(own.lints.map((lint) => [lint.code, lint.clients])).toContainEqual(['import-unresolved', ['claude-code']]);
      expect(own.lints.map((lint) => lint.code)).not.toContain('glob-matches-nothing');
      const text = await rules(['--repo', named.dir]);
      expect(text.stdout).toContain('gw cc  file');
      // --client is the caller's own question: it wins over the repository's list.
      const cursor = RulesMatrixSchema.parse(JSON.parse((await rules(['--repo', named.dir, '--client', 'cursor', '--json'])).stdout));
      expect(cursor.clients).toEqual(['cursor']);
      expect(cursor.lints.map((lint) => lint.code)).toContain('glob-matches-nothing');
      // A name no profile has makes the file invalid, said with the field, and every agent counts.
      named.write('.groundwork.yml', 'providers:\n  rules:\n    clients: [claude-code, vim]\n');
      named.commitAll('a bad name');
      const bad = await rules(['--repo', named.dir, '--json']);
      expect(bad.stderr).toMatch(/warning: .*providers\.rules\.clients\[1\].*"vim": must be one of codex, claude-code, gemini-cli, copilot, cursor/);
      expect(RulesMatrixSchema.parse(JSON.parse(bad.stdout)).clients).toEqual(['codex', 'claude-code', 'gemini-cli', 'copilot', 'cursor']);
    } finally {
      named.remove();
    }
  });

  it('exits 0 on a repository without an error lint', async () => {
    const run = await rules(['--repo', clean.dir]);
    expect(run.stdout).toContain('lints: none');
    expect(run.code).toBe(0);
  });

  it.each([
    [['--client', 'vim'], '--client vim: unknown client "vim"'],
    [['--client', 'none'], '--client none: none is Groundwork alone, always shown'],
    [['--client', 'codex@0.1.0'], 'name it without @version or :host'],
    [['--ref', '--upload-pack=x'], '--ref'],
    [['--cwd', 'nowhere'], '--cwd: nowhere is not a directory'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['extra'], 'positional'],
  ])('bad usage %j is exit 2 naming the option', async (args, said) => {
    const run = await rules(['--repo', clean.dir, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(said);
  });

  it('runs as the built bin, listed in the top-level help', () => {
    expect(execFileSync(process.execPath, [BUILT_CLI, '--help'], { encoding: 'utf8' })).toContain('rules     which rule files each coding agent loads');
    const run = spawnSync(process.execPath, [BUILT_CLI, 'rules', '--repo', clean.dir], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('2 rule files at HEAD');
  });
});
