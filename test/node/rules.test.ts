import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { ofProvider, runCli, runCliJson, userMessage } from './cli-support.ts';

const entry = resolveAgent('entry');
if (!entry.ok) throw new Error(entry.error);
const DEFAULT_AGENT = entry.agent;

describe('rules provider on a real repository', () => {
  let repo: GitFixture;
  let commit: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Root rules\nUse tabs. 漢字 and 🙂 stay intact.\n');
    repo.write('a/CLAUDE.md', 'a: prefer small functions\n');
    repo.write('a/b/AGENTS.md', 'a/b: AGENTS wins over CLAUDE\n');
    repo.write('a/b/CLAUDE.md', 'a/b: CLAUDE, not chosen\n');
    repo.write('a/b/c/d/AGENTS.MD', 'a/b/c/d: upper-case extension\n');
    repo.write('docs/RULES.md', 'linked rules\n');
    repo.symlink('../docs/RULES.md', 'linked/AGENTS.md');
    repo.symlink('../../etc/passwd', 'escape/AGENTS.md');
    repo.write('other/AGENTS.md', 'not on the chain\n');
    commit = repo.commitAll('rules');
    // Neither may appear: the snapshot is the commit, not the working tree.
    repo.write('AGENTS.md', 'UNCOMMITTED EDIT\n');
    repo.write('a/b/c/AGENTS.md', 'UNTRACKED FILE\n');
    repo.write('a/b/c/d/staged.md', 'x');
    repo.git('add', 'a/b/c/d/staged.md');
  });
  afterAll(() => repo.remove());

  it('reads the chain from the root to the working directory, general first', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'a/b/c/d']);
    expect(turn.commit).toBe(commit);
    const { entries } = ofProvider(turn, 'rules');
    expect(entries.map((e) => e.title)).toEqual(['AGENTS.md', 'a/CLAUDE.md', 'a/b/AGENTS.md', 'a/b/c/d/AGENTS.MD']);
    expect(entries.every((e) => e.source.revision === commit && e.freshness === 'pinned' && e.stability === 'commit')).toBe(true);
    // Each entry names the blob it was read from, as git itself names it at that commit.
    expect(entries.map((e) => e.source.blob)).toEqual(entries.map((e) => repo.git('rev-parse', `${commit}:${e.title}`).trim()));
    const user = userMessage(turn);
    expect(user).toContain(`source="a/b/AGENTS.md@${commit}"`);
    expect(user).toContain('漢字 and 🙂 stay intact.');
    expect(user).not.toContain('UNCOMMITTED EDIT');
    expect(user).not.toContain('UNTRACKED FILE');
    expect(user).not.toContain('CLAUDE, not chosen');
    expect(user).not.toContain('not on the chain');
    expect(user.indexOf('# Root rules')).toBeLessThan(user.indexOf('a/b/c/d: upper-case'));
  });

  it('resolves a symlinked AGENTS.md inside the tree and says so', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'linked']);
    const linked = turn.entries.find((e) => e.title === 'linked/AGENTS.md');
    expect(linked?.warnings).toContain('linked/AGENTS.md is a symlink to docs/RULES.md, resolved at this commit');
    expect(userMessage(turn)).toContain('linked rules');
    expect(turn.stderr).toContain('warning: rules: linked/AGENTS.md is a symlink to docs/RULES.md');
  });

  it('reports a symlink that leaves the tree instead of following it', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'escape']);
    expect(ofProvider(turn, 'rules').entries.map((e) => e.title)).toEqual(['AGENTS.md']);
    expect(ofProvider(turn, 'rules').outcome?.reason).toContain('left out escape/AGENTS.md: symlink to ../../etc/passwd not followed (path escapes the repository root)');
    expect(userMessage(turn)).not.toContain('../../etc/passwd');
  });

  it('records a working directory that is not in the tree', async () => {
    // A task whose working directory is not committed takes the chain of its nearest directory that is.
    const turn = await assembleFirstTurn({
      registry: createDefaultRegistry(),
      agent: DEFAULT_AGENT,
      available: ['repo:read'],
      snapshot: createLocalGitSource(repo.dir).snapshot(commit),
      task: { request: 'Fix it', origin: 'cli', repository: 'test', commit, cwd: 'nowhere/deeper', focusPaths: [], trusted: true, skills: [], agent: 'entry' },
      turn: 0,
    });
    expect(ofProvider(turn, 'rules').outcome?.reason).toContain('the working directory nowhere/deeper: nowhere is not in the tree at this commit; the rules of . apply');
    expect(ofProvider(turn, 'rules').entries.map((e) => e.title)).toEqual(['AGENTS.md']);
  });

  it('refuses, through the CLI, a --cwd that is not in the tree, naming it (exit 2)', async () => {
    const run = await runCli(['--repo', repo.dir, '--cwd', 'nowhere/deeper']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--cwd: nowhere/deeper is not a directory in the tree at HEAD (${commit.slice(0, 12)})`);
    expect(run.stdout).toBe('');
  });
});

describe('rules budget', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', `# Huge root\n${'Root rule line with some words in it.\n'.repeat(5_500)}`);
    repo.write('pkg/AGENTS.md', 'pkg: small and specific\n');
    repo.write('pkg/mod/AGENTS.md', 'pkg/mod: smaller still\n');
    repo.write('pkg/mod/leaf/AGENTS.md', 'leaf: 葉 🍃\n');
    repo.commitAll('huge root');
  });
  afterAll(() => repo.remove());

  it('keeps every nested file whole when a 200 KB root file is cut to its fair share', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'pkg/mod/leaf']);
    expect(ofProvider(turn, 'rules').entries.map((e) => [e.title, e.truncated])).toEqual([
      ['AGENTS.md', true],
      ['pkg/AGENTS.md', false],
      ['pkg/mod/AGENTS.md', false],
      ['pkg/mod/leaf/AGENTS.md', false],
    ]);
    const rules = turn.providers.find((p) => p.name === 'rules');
    expect(rules?.outcome).toBe('included');
    expect(rules?.tokens).toBeLessThanOrEqual(8_000);
    expect(rules?.tokens).toBeGreaterThan(7_900);
    const user = userMessage(turn);
    expect(user).toMatch(/\[… truncated by groundwork: AGENTS\.md shown \d+\/\d{6} chars\]/);
    expect(user).toContain('leaf: 葉 🍃');
    expect(ofProvider(turn, 'rules').entries[0]?.warnings[0]).toMatch(/^AGENTS\.md: truncated to a fair share of \d+ tokens, shown \d+\/\d+ chars$/);
  });
});
