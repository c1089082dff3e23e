/**
 * The lints of a rule set (providers/rules/lints), through the rules matrix over real git
 * repositories: each lint on a tree shaped like a real repository, and hostile input (huge
 * frontmatter, binary files, weird names). Every lint names the client fact it rests on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientName } from '../../src/context/client.ts';
import { RuleLintSchema, type RuleLint } from '../../src/context/rule-lint.ts';
import { RulesMatrixSchema, type RulesMatrix } from '../../src/context/rules-matrix.ts';
import { RulesConfigSchema, type RulesConfig } from '../../src/providers/rules/config.ts';
import { rulesMatrix } from '../../src/providers/rules/rules-matrix.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

const repos: GitFixture[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.remove();
});

interface MatrixOptions {
  cwd?: string;
  paths?: string[];
  clients?: ClientName[];
  scan?: boolean;
  config?: Partial<RulesConfig>;
}

async function matrixOf(files: Record<string, string | Uint8Array>, options: MatrixOptions = {}): Promise<RulesMatrix> {
  const repo = createGitRepo();
  repos.push(repo);
  for (const [path, content] of Object.entries(files)) repo.write(path, content);
  const commit = repo.commitAll('rules');
  const snapshot = createLocalGitSource(repo.dir).snapshot(commit);
  const matrix = await rulesMatrix(snapshot, {
    cwd: options.cwd ?? '',
    paths: options.paths ?? [],
    ...(options.clients ? { clients: options.clients } : {}),
    ...(options.scan ? { scan: true } : {}),
    config: RulesConfigSchema.parse(options.config ?? {}),
    signal: AbortSignal.timeout(20_000),
  });
  // Every answer is what the JSON outputs carry.
  expect(RulesMatrixSchema.parse(matrix)).toEqual(matrix);
  return matrix;
}

const brief = (lints: readonly RuleLint[]) => lints.map((lint) => [lint.code, lint.severity, lint.path, lint.line, lint.clients.join(',')]);
const ofCode = (matrix: RulesMatrix, code: RuleLint['code']) => matrix.lints.filter((lint) => lint.code === code);

describe('frontmatter a client cannot parse or reads otherwise', () => {
  it('Cursor: bad YAML in a .mdc, a quoted alwaysApply, paths instead of globs, a plain .md (cursor.rules, cursor.frontmatter)', async () => {
    const matrix = await matrixOf({
      'AGENTS.md': '# Root\n',
      '.cursor/rules/broken.mdc': '---\ndescription: [unclosed\nglobs: src/**\n---\nbody\n',
      '.cursor/rules/quoted.mdc': '---\ndescription: Always\nalwaysApply: "true"\n---\nbody\n',
      '.cursor/rules/paths.mdc': '---\npaths: src/**/*.ts\n---\nbody\n',
      '.cursor/rules/plain.md': 'plain\n',
      '.cursor/rules/fine.mdc': '---\nglobs: src/**/*.ts\nalwaysApply: false\n---\nbody\n',
      'src/a.ts': 'export {};\n',
    });
    expect(brief(matrix.lints.filter((lint) => lint.clients.includes('cursor')))).toEqual([
      ['frontmatter-unreadable', 'error', '.cursor/rules/broken.mdc', 3, 'cursor'],
      ['frontmatter-field', 'error', '.cursor/rules/paths.mdc', 2, 'cursor'],
      ['ignored-file', 'error', '.cursor/rules/plain.md', undefined, 'cursor'],
      ['frontmatter-field', 'error', '.cursor/rules/quoted.mdc', 3, 'cursor'],
    ]);
    expect(ofCode(matrix, 'frontmatter-field').find((lint) => lint.path.endsWith('quoted.mdc'))?.message).toContain('alwaysApply: "true" (a quoted string) as not set');
    expect(ofCode(matrix, 'frontmatter-unreadable')[0]).toMatchObject({ facts: ['cursor.frontmatter'] });
    expect(ofCode(matrix, 'frontmatter-unreadable')[0]?.message).toMatch(/^Cursor skips a rule whose frontmatter it cannot parse, without a word: frontmatter is not valid YAML/);
  });

  it('a format whose client is not in the set is not linted', async () => {
    const matrix = await matrixOf({ '.cursor/rules/broken.mdc': '---\ndescription: [unclosed\n---\nbody\n' }, { clients: ['codex', 'claude-code'] });
    expect(matrix.lints.filter((lint) => lint.code.startsWith('frontmatter'))).toEqual([]);
    expect(matrix.clients).toEqual(['codex', 'claude-code']);
  });
});

describe('lint records', () => {
  it('are bounded by the schema the JSON outputs share', () => {
    const lint: RuleLint = { code: 'frontmatter-field', severity: 'error', path: 'a.md', clients: ['cursor'], message: 'x', facts: ['cursor.rules'] };
    expect(RuleLintSchema.parse(lint)).toEqual(lint);
    expect(RuleLintSchema.safeParse({ ...lint, line: 0 }).success).toBe(false);
    expect(RuleLintSchema.safeParse({ ...lint, clients: ['vim'] }).success).toBe(false);
  });
});

describe('frontmatter, Claude Code and Copilot', () => {
  it('Claude Code: unparseable frontmatter skips the rule, globs instead of paths may leave it unscoped (claude.rules, claude.rules-frontmatter)', async () => {
    const matrix = await matrixOf({
      '.claude/rules/broken.md': '---\npaths: [src/**\n---\nbody\n',
      '.claude/rules/globs.md': '---\ndescription: TS\nglobs: src/**/*.ts\n---\nbody\n',
      '.claude/rules/map.md': '---\npaths:\n  a: b\n---\nbody\n',
      '.claude/rules/fine.md': '---\npaths: src/**/*.ts\n---\nbody\n',
      'src/a.ts': 'export {};\n',
    }, { clients: ['claude-code'] });
    expect(brief(matrix.lints)).toEqual([
      ['frontmatter-unreadable', 'error', '.claude/rules/broken.md', 3, 'claude-code'],
      ['frontmatter-field', 'warning', '.claude/rules/globs.md', 3, 'claude-code'],
      ['frontmatter-field', 'error', '.claude/rules/map.md', 2, 'claude-code'],
    ]);
    expect(matrix.lints[1]).toMatchObject({ facts: ['claude.rules-frontmatter'], message: 'Claude Code documents paths, not globs, for .claude/rules: it may load this rule in every session, unscoped' });
  });

  it('Copilot: applyTo as a list, a rooted pattern, none at all, globs instead, a header never closed (copilot.vscode.apply-to-string)', async () => {
    const matrix = await matrixOf({
      '.github/instructions/list.instructions.md': '---\napplyTo:\n  - "src/**"\n---\nbody\n',
      '.github/instructions/rooted.instructions.md': '---\ndescription: x\napplyTo: "/src/**/*.ts"\n---\nbody\n',
      '.github/instructions/none.instructions.md': '---\ndescription: x\n---\nbody\n',
      '.github/instructions/globs.instructions.md': '---\nglobs: src/**\n---\nbody\n',
      '.github/instructions/open.instructions.md': '---\napplyTo: "**"\nbody never closed\n',
      '.github/instructions/fine.instructions.md': '---\napplyTo: "src/**/*.ts"\n---\nbody\n',
      'src/a.ts': 'export {};\n',
    }, { clients: ['copilot'] });
    expect(brief(matrix.lints.filter((lint) => lint.code.startsWith('frontmatter')))).toEqual([
      ['frontmatter-field', 'error', '.github/instructions/globs.instructions.md', 2, 'copilot'],
      ['frontmatter-field', 'error', '.github/instructions/list.instructions.md', 2, 'copilot'],
      ['frontmatter-field', 'warning', '.github/instructions/none.instructions.md', undefined, 'copilot'],
      ['frontmatter-unreadable', 'error', '.github/instructions/open.instructions.md', 1, 'copilot'],
      ['frontmatter-field', 'warning', '.github/instructions/rooted.instructions.md', 3, 'copilot'],
    ]);
    expect(matrix.lints.find((lint) => lint.path.includes('list.'))?.message).toContain('a YAML list is dropped without a word');
  });
});

describe('globs that match no file at the commit', () => {
  it('a rule whose every glob is dead never applies (error); one dead glob among live ones is a warning', async () => {
    const matrix = await matrixOf({
      '.cursor/rules/dead.mdc': '---\nglobs: srv/**/*.ts\n---\nbody\n',
      '.cursor/rules/half.mdc': '---\nglobs: src/**/*.ts, lib/**/*.rb\n---\nbody\n',
      '.claude/rules/moved.md': '---\npaths:\n  - "packages/old/**"\n---\nbody\n',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.tsx"\n---\nbody\n',
      'src/a.ts': 'export {};\n',
    });
    expect(brief(ofCode(matrix, 'glob-matches-nothing'))).toEqual([
      ['glob-matches-nothing', 'error', '.claude/rules/moved.md', 2, 'claude-code'],
      ['glob-matches-nothing', 'error', '.cursor/rules/dead.mdc', 2, 'cursor'],
      ['glob-matches-nothing', 'warning', '.cursor/rules/half.mdc', 2, 'cursor'],
      ['glob-matches-nothing', 'error', '.github/instructions/ts.instructions.md', 2, 'copilot'],
    ]);
    expect(ofCode(matrix, 'glob-matches-nothing')[1]?.message).toBe('no file at this commit matches globs "srv/**/*.ts": the rule never applies');
    expect(ofCode(matrix, 'glob-matches-nothing')[2]?.message).toBe('globs "lib/**/*.rb" matches no file at this commit');
  });

  it('says nothing when the bounded walk could not see the whole base', async () => {
    const files: Record<string, string> = { '.cursor/rules/dead.mdc': '---\nglobs: src/**/*.rb\n---\nbody\n' };
    for (let i = 0; i < 5; i++) files[`src/d${i}/a.ts`] = 'x\n';
    const matrix = await matrixOf(files, { config: { maxGlobCheckDirectories: 3 } });
    expect(ofCode(matrix, 'glob-matches-nothing')).toEqual([]);
  });
});

describe('imports that do not resolve or leave the tree', () => {
  it('names the clients that follow the importer, the line and the cause; Codex, which follows none, is not concerned', async () => {
    const matrix = await matrixOf({
      'CLAUDE.md': '# Claude\nSee @docs/missing.md for the style.\nAnd @../outside.md too.\n',
      'GEMINI.md': '# Gemini\n\n@docs/ok.md\n@./docs\n',
      'AGENTS.md': 'Codex: see @docs/gone.md\n',
      'docs/ok.md': 'ok\n',
      'docs/x.md': 'x\n',
    });
    expect(brief(matrix.lints.filter((lint) => lint.code.startsWith('import')))).toEqual([
      ['import-unresolved', 'error', 'CLAUDE.md', 2, 'claude-code'],
      ['import-outside-tree', 'error', 'CLAUDE.md', 3, 'claude-code'],
      ['import-unresolved', 'error', 'GEMINI.md', 4, 'gemini-cli'],
    ]);
    expect(matrix.lints.find((lint) => lint.code === 'import-unresolved')).toMatchObject({ message: 'Claude Code loads nothing for @docs/missing.md: docs/missing.md is not in the tree at this commit', facts: ['claude.imports'], related: ['docs/missing.md'] });
    expect(matrix.lints.find((lint) => lint.code === 'import-outside-tree')?.message).toBe('Claude Code loads nothing for @../outside.md: it leaves the repository (path escapes the repository root)');
    expect(matrix.lints.find((lint) => lint.path === 'GEMINI.md')?.message).toBe('Gemini CLI loads nothing for @./docs: docs is a directory, not a file');
  });
});

describe('files over a client\'s size cap', () => {
  it('Codex cuts the AGENTS.md that crosses its 32 KiB and drops the ones after it (codex.budget)', async () => {
    const big = `${'x'.repeat(1023)}\n`.repeat(40);
    const matrix = await matrixOf({ 'AGENTS.md': big, 'packages/api/AGENTS.md': 'api\n' }, { cwd: 'packages/api', clients: ['codex', 'claude-code'] });
    expect(brief(ofCode(matrix, 'over-size-cap'))).toEqual([
      ['over-size-cap', 'error', 'AGENTS.md', undefined, 'codex'],
      ['over-size-cap', 'error', 'packages/api/AGENTS.md', undefined, 'codex'],
    ]);
    expect(ofCode(matrix, 'over-size-cap')[0]?.message).toBe('Codex cuts it at 32768 bytes of 40960, without a word: the rest never reaches the model');
    expect(ofCode(matrix, 'over-size-cap')[1]?.message).toContain('Codex drops it: the files above it fill its 32768-byte budget');
  });

  it('a nested file over the cap is reported for when Codex starts beside it', async () => {
    const matrix = await matrixOf({ 'AGENTS.md': 'root\n', 'packages/big/AGENTS.md': 'y'.repeat(40_000) }, { clients: ['codex'], scan: true });
    expect(ofCode(matrix, 'over-size-cap').map((lint) => [lint.path, lint.message])).toEqual([
      ['packages/big/AGENTS.md', "Codex cuts it at 32763 bytes of 40000 when it starts in this file's directory, without a word: the rest never reaches the model"],
    ]);
  });
});

describe('a rule no client of the set loads', () => {
  it('a GEMINI.md for Codex and Claude Code, a manual Cursor rule; never a file some client loads', async () => {
    const matrix = await matrixOf({
      'AGENTS.md': 'root\n',
      'GEMINI.md': 'gemini\n',
      'packages/api/AGENTS.md': 'api\n',
      '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nmanual\n',
    }, { clients: ['codex', 'claude-code'] });
    expect(brief(ofCode(matrix, 'loaded-by-no-client'))).toEqual([
      ['loaded-by-no-client', 'warning', '.cursor/rules/manual.mdc', undefined, 'codex,claude-code'],
      ['loaded-by-no-client', 'warning', 'GEMINI.md', undefined, 'codex,claude-code'],
    ]);
    expect(ofCode(matrix, 'loaded-by-no-client')[1]?.message).toBe('no client of the set loads it by itself (Codex: Codex reads AGENTS.override.md or AGENTS.md, not GEMINI.md; Claude Code: Claude Code reads CLAUDE.md and AGENTS.md, not GEMINI.md)');
    const all = await matrixOf({ 'AGENTS.md': 'root\n', 'GEMINI.md': 'gemini\n' });
    expect(ofCode(all, 'loaded-by-no-client')).toEqual([]);
  });
});

describe('two files of one directory that clients resolve differently', () => {
  it('AGENTS.md and CLAUDE.md with different text: Codex and Claude Code follow different rules there', async () => {
    const matrix = await matrixOf({ 'AGENTS.md': '# Rules\nRun npm test.\n', 'CLAUDE.md': '# Rules\nRun pnpm test.\n', 'packages/api/AGENTS.md': 'api\n' }, { clients: ['codex', 'claude-code'] });
    expect(brief(ofCode(matrix, 'directory-disagreement'))).toEqual([['directory-disagreement', 'warning', 'AGENTS.md', undefined, 'codex,claude-code']]);
    expect(ofCode(matrix, 'directory-disagreement')[0]).toMatchObject({ message: 'the repository root: the clients read different files with different text (Codex reads AGENTS.md; Claude Code reads CLAUDE.md)', related: ['CLAUDE.md'] });
  });

  it('agrees when CLAUDE.md only imports AGENTS.md, or holds the same text with other line ends', async () => {
    const imported = await matrixOf({ 'AGENTS.md': '# Rules\nRun npm test.\n', 'CLAUDE.md': '@AGENTS.md\n' }, { clients: ['codex', 'claude-code'] });
    expect(ofCode(imported, 'directory-disagreement')).toEqual([]);
    const same = await matrixOf({ 'AGENTS.md': '# Rules\nRun npm test.\n', 'CLAUDE.md': '# Rules  \r\nRun npm test.\r\n' }, { clients: ['codex', 'claude-code'] });
    expect(ofCode(same, 'directory-disagreement')).toEqual([]);
  });
});

describe('hostile input', () => {
  it('huge frontmatter, binary rule files, weird names: lints, never a throw', async () => {
    const huge = `---\ndescription: ${'a'.repeat(20_000)}\n---\nbody\n`;
    const matrix = await matrixOf({
      '.cursor/rules/huge.mdc': huge,
      '.cursor/rules/bin.mdc': new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0x00]),
      '.claude/rules/we ird\u202e name.md': '---\npaths: [\n---\nx\n',
      'CLAUDE.md': `${'@x '.repeat(2_000)}\n`,
      'AGENTS.md': `${'line\n'.repeat(10_000)}@deep/missing.md\n`,
    });
    const huge0 = matrix.lints.find((lint) => lint.path === '.cursor/rules/huge.mdc');
    expect(huge0).toMatchObject({ code: 'frontmatter-unreadable', severity: 'error' });
    expect(huge0?.message).toContain('over the 16384 a rule may have');
    expect(matrix.lints.find((lint) => lint.path.startsWith('.claude/rules/we ird'))).toMatchObject({ code: 'frontmatter-unreadable' });
    expect(matrix.lints.some((lint) => lint.path === '.cursor/rules/bin.mdc' && lint.code.startsWith('frontmatter'))).toBe(false);
    for (const lint of matrix.lints) expect(RuleLintSchema.parse(lint)).toEqual(lint);
  });
});

describe('the whole repository (scan)', () => {
  it('finds the rule files of every directory, nested .cursor included, and says when the walk was cut', async () => {
    const files = { 'AGENTS.md': 'root\n', 'packages/a/CLAUDE.md': 'a\n', 'packages/b/deep/GEMINI.md': 'b\n', 'apps/web/.cursor/rules/x.mdc': '---\nalwaysApply: true\n---\nx\n', 'docs/readme.md': 'no rules\n' };
    const matrix = await matrixOf(files, { scan: true });
    expect(matrix.files.map((file) => file.path).sort()).toEqual(['AGENTS.md', 'apps/web/.cursor/rules/x.mdc', 'packages/a/CLAUDE.md', 'packages/b/deep/GEMINI.md']);
    expect(matrix.paths).toEqual([]);
    const cut = await matrixOf(files, { scan: true, config: { maxGlobCheckDirectories: 2 } });
    expect(cut.notes[0]).toMatch(/^the scan for rule files stopped after 1 directories \(maxGlobCheckDirectories\); 3 more at depth 1 and below were not looked at$/);
  });
});

describe('directory disagreement, a preface', () => {
  it('a CLAUDE.md that adds a line to the AGENTS.md it imports (cloudflare/workers-sdk) is no disagreement', async () => {
    const matrix = await matrixOf({ 'AGENTS.md': '# Rules\nRun pnpm test.\n', 'CLAUDE.md': '# CLAUDE.md\n\nThis file provides guidance to Claude Code.\n\nSee @AGENTS.md\n' });
    expect(ofCode(matrix, 'directory-disagreement')).toEqual([]);
  });
});
