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
