import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import type { TaskView } from '../../src/context/provider.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import type { AssembledTurn } from '../../src/context/turn-schema.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { RulesConfigSchema } from '../../src/providers/rules/provider.ts';
import { renderRequestedRule } from '../../src/providers/rules/requested.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { RULE_FORMAT_FILES } from '../support/rule-formats-repo.ts';
import { ofProvider, runCli, runCliJson, userMessage } from './cli-support.ts';

const verdicts = (turn: AssembledTurn) => turn.providers.find((p) => p.name === 'rules')?.verdicts ?? [];
const verdictOf = (turn: AssembledTurn, path: string) => verdicts(turn).find((v) => v.path === path);
const byVerdict = (turn: AssembledTurn, kind: string) => verdicts(turn).filter((v) => v.verdict === kind).map((v) => v.path);

describe('instruction formats through the CLI, on a monorepo that uses all of them', () => {
  let repo: GitFixture;
  let commit: string;

  beforeAll(() => {
    repo = createGitRepo();
    for (const [path, text] of Object.entries(RULE_FORMAT_FILES)) repo.write(path, text);
    repo.symlink('../../../../etc/passwd', 'packages/api/notes/out.md');
    commit = repo.commitAll('formats');
  });
  afterAll(() => repo.remove());

  it('gives every rule file a verdict and a reason, in --json and in the human view', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api']);
    expect(byVerdict(turn, 'applied')).toEqual([
      'AGENTS.md',
      'packages/api/CLAUDE.md',
      '.github/copilot-instructions.md',
      '.cursorrules',
      '.cursor/rules/always.mdc',
      '.cursor/rules/everything.mdc',
      '.claude/CLAUDE.md',
      '.claude/rules/api.md',
      '.claude/rules/general.md',
      '.github/instructions/review.instructions.md',
      'docs/style.md',
      'docs/a.md',
      'packages/api/notes/errors.md',
      'docs/conventions.md',
    ]);
    expect(verdictOf(turn, '.claude/CLAUDE.md')).toMatchObject({ format: 'claude-memory', reason: 'always (Claude Code project memory)' });
    expect(byVerdict(turn, 'indexed')).toEqual(['.cursor/rules/database.mdc']);
    expect(verdictOf(turn, '.claude/rules/api.md')?.reason).toBe('paths "packages/api/**" matched the working directory packages/api');
    expect(verdictOf(turn, '.cursor/rules/everything.mdc')?.reason).toBe('always (globs "**" matches every file)');
    expect(verdictOf(turn, '.cursor/rules/manual.mdc')).toMatchObject({ verdict: 'not-applied', reason: expect.stringContaining('manual rule') });
    expect(verdictOf(turn, '.cursor/rules/huge.mdc')?.reason).toContain('frontmatter is 20014 characters, over the 16384 a rule may have');
    expect(verdictOf(turn, '.cursor/rules/bomb.mdc')?.reason).toContain('aliases expand to more than 50 nodes');
    expect(verdictOf(turn, '.cursor/rules/broken.mdc')?.reason).toContain('frontmatter is not valid YAML');
    expect(verdictOf(turn, '.github/instructions/escape.instructions.md')?.reason).toContain('a ".." segment points outside');
    expect(verdictOf(turn, '.github/instructions/typo.instructions.md')?.reason).toBe('no focus path matched applyTo "srcs/**/*.go"; "srcs/**/*.go" matches no file at this commit');
    expect(verdictOf(turn, '.github/instructions/attached.instructions.md')?.reason).toContain('no applyTo');
    // Every verdict of a file read names its blob, as git names it at the commit.
    for (const verdict of verdicts(turn).filter((v) => v.blob)) expect(verdict.blob).toBe(repo.git('rev-parse', `${commit}:${verdict.path}`).trim());

    const human = await runCli(['--repo', repo.dir, '--cwd', 'packages/api']);
    expect(human.stdout).toContain('── rule files');
    expect(human.stdout).toMatch(/indexed +\.cursor\/rules\/database\.mdc +agent-requested/);
  });

  it('renders applied rules with their own provenance, indexes agent-requested ones and leaves the rest out', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api']);
    const { entries } = ofProvider(turn, 'rules');
    expect(entries.map((e) => [e.title, e.stability])).toEqual([
      ['AGENTS.md', 'commit'],
      ['packages/api/CLAUDE.md', 'commit'],
      ['docs/style.md (imported by packages/api/CLAUDE.md)', 'commit'],
      ['docs/a.md (imported by docs/style.md)', 'commit'],
      ['packages/api/notes/errors.md (imported by packages/api/CLAUDE.md)', 'commit'],
      ['.github/copilot-instructions.md', 'commit'],
      ['.cursorrules', 'commit'],
      ['.cursor/rules/always.mdc', 'commit'],
      ['.cursor/rules/everything.mdc', 'commit'],
      ['.claude/CLAUDE.md', 'commit'],
      ['docs/conventions.md (imported by .claude/CLAUDE.md)', 'commit'],
      ['.claude/rules/api.md', 'commit'],
      ['.claude/rules/general.md', 'commit'],
      ['.github/instructions/review.instructions.md', 'commit'],
      ['Rules index', 'commit'],
    ]);
    const imported = entries.find((e) => e.title.startsWith('docs/a.md'));
    expect(imported?.source).toMatchObject({ path: 'docs/a.md', revision: commit, blob: repo.git('rev-parse', `${commit}:docs/a.md`).trim() });
    const user = userMessage(turn);
    expect(user).toContain('Cursor: keep functions short.');
    expect(user).not.toContain('description: House rules');
    expect(user).toContain('- database: Database migrations and schema changes (.cursor/rules/database.mdc)');
    expect(user).not.toContain('Migrations: never edit an applied one.');
    for (const absent of ['Only when named.', 'Never shown.', 'Go: gofmt', 'Huge.', 'Broken.', 'Bomb.', 'Web: use the design tokens']) expect(user).not.toContain(absent);
    // An import is given once, after the first file that imports it; the cycle is said, not followed.
    expect(user.split('Naming: kebab-case files.').length).toBe(2);
    expect(turn.stderr).toContain('warning: rules: import cycle packages/api/CLAUDE.md -> docs/style.md -> docs/a.md -> docs/style.md: not followed again');
  });

  it('expands imports only outside code, only inside the tree, and warns about what it could not follow', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api']);
    const paths = verdicts(turn).map((v) => v.path);
    for (const never of ['inline/code.md', 'packages/api/inline/code.md', 'packages/api/fenced/block.md', 'octokit/rest', 'packages/api/octokit/rest']) expect(paths).not.toContain(never);
    expect(verdictOf(turn, 'packages/api/notes/out.md')?.reason).toBe('import @notes/out.md in packages/api/CLAUDE.md: packages/api/notes/out.md is a symlink to ../../../../etc/passwd, not followed (path escapes the repository root)');
    expect(verdictOf(turn, '~/.claude/prefs.md')?.reason).toContain('a home directory is outside the repository');
    expect(verdictOf(turn, '/etc/passwd')?.reason).toContain('an absolute path is outside the repository');
    expect(verdictOf(turn, 'packages/api/gone.md')?.reason).toContain('is not in the tree at this commit');
    expect(userMessage(turn)).not.toContain('root:x:0:0');
  });

  it('applies scoped rules a focus path matches, task-stable and after the shared prefix', async () => {
    const registry = createDefaultRegistry();
    const agent = resolveAgent('entry');
    if (!agent.ok) throw new Error(agent.error);
    const task: TaskView = { request: 'Fix the view.', origin: 'cli', repository: 'test', commit, cwd: '', focusPaths: ['packages/web/src/view.tsx'], trusted: true, skills: [], agent: 'entry' };
    const turn = await assembleFirstTurn({ registry, agent: agent.agent, available: ['repo:read'], snapshot: createLocalGitSource(repo.dir).snapshot(commit), task, turn: 0 });
    expect(verdictOf(turn, '.github/instructions/web/react.instructions.md')?.reason).toBe('applyTo "packages/web/**" matched packages/web/src/view.tsx');
    expect(verdictOf(turn, '.claude/rules/frontend/web.md')?.reason).toBe('paths "packages/web/**/*.tsx" matched packages/web/src/view.tsx');
    expect(verdictOf(turn, 'packages/web/.cursor/rules/web.mdc')?.reason).toBe('globs "src/**" matched packages/web/src/view.tsx');
    expect(verdictOf(turn, '.claude/rules/api.md')?.verdict).toBe('not-applied');
    const stability = (title: string) => turn.entries.find((e) => e.title === title)?.stability;
    expect(stability('.github/instructions/web/react.instructions.md')).toBe('task');
    expect(stability('packages/web/.cursor/rules/web-always.mdc')).toBe('task');
    expect(stability('.cursor/rules/always.mdc')).toBe('commit');
    const user = userMessage(turn);
    expect(user.indexOf('Cursor: keep functions short.')).toBeLessThan(user.indexOf('React: function components only.'));
  });

  it("counts the reviewer as Copilot's code review for excludeAgent", async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--agent', 'reviewer']);
    expect(verdictOf(turn, '.github/instructions/review.instructions.md')).toMatchObject({ verdict: 'not-applied', reason: 'excludeAgent: code-review (this agent counts as code-review)' });
  });

  it('turns a format off from the repository settings, and says so for each of its files', async () => {
    const off = createGitRepo();
    try {
      for (const [path, text] of Object.entries(RULE_FORMAT_FILES)) off.write(path, text);
      off.write('.groundwork.yml', 'providers:\n  rules: { cursorRules: false, imports: false }\n');
      off.commitAll('off');
      const turn = await runCliJson(['--repo', off.dir, '--cwd', 'packages/api']);
      expect(verdictOf(turn, '.cursor/rules/always.mdc')).toMatchObject({ verdict: 'not-applied', reason: 'turned off by a setting (cursorRules: false)' });
      expect(ofProvider(turn, 'rules').entries.map((e) => e.title)).not.toContain('Rules index');
      expect(verdicts(turn).filter((v) => v.format === 'import')).toEqual([]);
      expect(ofProvider(turn, 'rules').outcome?.reason).toContain('cursorRules=false');
    } finally {
      off.remove();
    }
  });

  it('gives a format file with the same content as a directory file once, as the directory file, and turns .claude/CLAUDE.md off by its setting', async () => {
    const copies = createGitRepo();
    try {
      copies.write('AGENTS.md', '# Shared\nOne set of rules for every agent.\n');
      copies.write('.github/copilot-instructions.md', '# Shared\nOne set of rules for every agent.\n');
      copies.symlink('../AGENTS.md', '.claude/CLAUDE.md');
      copies.write('.cursorrules', 'Cursor only: be terse.\n');
      copies.commitAll('copies');
      const turn = await runCliJson(['--repo', copies.dir]);
      expect(ofProvider(turn, 'rules').entries.map((e) => e.title)).toEqual(['AGENTS.md', '.cursorrules']);
      expect(userMessage(turn).split('One set of rules for every agent.').length).toBe(2);
      for (const path of ['.github/copilot-instructions.md', '.claude/CLAUDE.md']) {
        expect(verdictOf(turn, path)).toMatchObject({ verdict: 'applied', reason: expect.stringMatching(/^always \(.*\); the same content as AGENTS\.md, given once as it$/) });
      }
      expect(turn.stderr).toContain('.claude/CLAUDE.md has the same content');

      copies.write('.groundwork.yml', 'providers:\n  rules: { claudeMemory: false }\n');
      copies.write('.claude/CLAUDE.md.txt', 'not the memory file\n');
      copies.commitAll('memory off');
      const off = await runCliJson(['--repo', copies.dir]);
      expect(verdictOf(off, '.claude/CLAUDE.md')).toMatchObject({ verdict: 'not-applied', reason: 'turned off by a setting (claudeMemory: false)' });
    } finally {
      copies.remove();
    }
  });

  it('says when the budget left out a file it would have applied', async () => {
    const tight = createGitRepo();
    let turn: AssembledTurn;
    try {
      for (const [path, text] of Object.entries(RULE_FORMAT_FILES)) tight.write(path, text);
      tight.write('.groundwork.yml', 'providers:\n  rules: { budget: 60 }\n');
      tight.commitAll('tight');
      turn = await runCliJson(['--repo', tight.dir, '--cwd', 'packages/api']);
    } finally {
      tight.remove();
    }
    const dropped = verdicts(turn).filter((v) => v.reason.endsWith('but the token budget left it out'));
    expect(dropped.length).toBeGreaterThan(0);
    for (const verdict of dropped) expect(ofProvider(turn, 'rules').entries.map((e) => e.source.path)).not.toContain(verdict.path);
  });
});

describe('asking for an indexed rule by name', () => {
  it('renders the agent-requested rule at the commit, task-stable, and names the known ones otherwise', async () => {
    const repo = createGitRepo();
    try {
      for (const [path, text] of Object.entries(RULE_FORMAT_FILES)) repo.write(path, text);
      const commit = repo.commitAll('formats');
      const task: TaskView = { request: 'Migrate.', origin: 'cli', repository: 'test', commit, cwd: '', focusPaths: [], trusted: true, skills: [], agent: 'entry' };
      const config = RulesConfigSchema.parse({});
      const snapshot = createLocalGitSource(repo.dir).snapshot(commit);
      const rendered = await renderRequestedRule({ snapshot, task, config, name: 'database', budget: 1_000, signal: new AbortController().signal });
      if (rendered.status !== 'ok') throw new Error(rendered.reason);
      expect(rendered.entries).toEqual([
        expect.objectContaining({ title: '.cursor/rules/database.mdc', body: 'Migrations: never edit an applied one.\n', stability: 'task', source: expect.objectContaining({ path: '.cursor/rules/database.mdc', revision: commit }) }),
      ]);
      expect(rendered.verdicts[0]).toMatchObject({ verdict: 'applied', reason: 'requested by name (database)' });
      expect(await renderRequestedRule({ snapshot, task, config, name: 'always', budget: 1_000, signal: new AbortController().signal })).toEqual({
        status: 'unknown',
        reason: 'no agent-requested rule named "always" at this commit; the index lists database',
      });
    } finally {
      repo.remove();
    }
  });
});
