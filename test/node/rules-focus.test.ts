import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/context/registry.ts';
import { createRulesProvider } from '../../src/providers/rules/provider.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { ofProvider, runCli, runCliJson, userMessage } from './cli-support.ts';

/** A monorepo as teams keep one: rules at the root and per package, a nested override, twins. */
function buildMonorepo(repo: GitFixture): string {
  repo.write('AGENTS.md', '# Monorepo\nRun the tests of every package you touch.\n');
  repo.write('packages/api/AGENTS.md', '# api\nHandlers validate with zod.\n');
  repo.write('packages/api/src/index.ts', 'export {};\n');
  repo.write('packages/web/AGENTS.md', '# web\nComponents are small.\n');
  repo.write('packages/web/CLAUDE.md', 'web CLAUDE.md: not chosen, AGENTS.md comes first\n');
  repo.write('packages/web/src/app.tsx', 'export {};\n');
  repo.write('packages/db/AGENTS.md', '# db\nEvery query is parameterised.\n');
  repo.write('packages/db/migrations/AGENTS.md', 'migrations AGENTS.md: not chosen, the override wins\n');
  repo.write('packages/db/migrations/AGENTS.override.md', '# migrations\nNever edit a migration that shipped.\n');
  repo.write('packages/db/migrations/001.sql', 'select 1;\n');
  repo.write('packages/twin-a/AGENTS.md', '# twins\nThe same rules, kept in two places.\n');
  repo.write('packages/twin-b/AGENTS.md', '# twins\nThe same rules, kept in two places.\n');
  repo.write('services/gemini/GEMINI.md', '# gemini\nOnly a GEMINI.md here.\n');
  for (let i = 0; i < 100; i++) repo.write(`many/d${String(i).padStart(3, '0')}/AGENTS.md`, `rules of d${i}\n`);
  return repo.commitAll('monorepo');
}

describe('rules along every focus path (groundwork context --path)', () => {
  let repo: GitFixture;
  let commit: string;

  beforeAll(() => {
    repo = createGitRepo();
    commit = buildMonorepo(repo);
  });
  afterAll(() => repo.remove());

  it('reads the chain of every focus path once, in tree order, the working directory commit-stable and the rest task-stable', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api', '--path', 'packages/web/src/app.tsx', '--path', 'packages/db/migrations/001.sql', '--path', 'services/gemini', '--path', './packages/web/src/app.tsx']);
    expect(turn.focusPaths).toEqual(['packages/web/src/app.tsx', 'packages/db/migrations/001.sql', 'services/gemini']);
    const { entries, outcome } = ofProvider(turn, 'rules');
    expect(outcome?.outcome).toBe('included');
    expect(entries.map((e) => [e.title, e.stability, e.appliesTo?.paths])).toEqual([
      ['AGENTS.md', 'commit', ['packages/api', 'packages/web/src/app.tsx', 'packages/db/migrations/001.sql', 'services/gemini']],
      ['packages/api/AGENTS.md', 'commit', ['packages/api']],
      ['packages/db/AGENTS.md', 'task', ['packages/db/migrations/001.sql']],
      ['packages/db/migrations/AGENTS.override.md', 'task', ['packages/db/migrations/001.sql']],
      ['packages/web/AGENTS.md', 'task', ['packages/web/src/app.tsx']],
      ['services/gemini/GEMINI.md', 'task', ['services/gemini']],
    ]);
    expect(entries.every((e) => e.source.revision === commit && e.freshness === 'pinned')).toBe(true);
    const user = userMessage(turn);
    // The shared part first (every task on this commit and cwd has it), then what the paths bring.
    expect(user.indexOf('Handlers validate with zod.')).toBeLessThan(user.indexOf('Every query is parameterised.'));
    expect(user.indexOf('Every query is parameterised.')).toBeLessThan(user.indexOf('Never edit a migration that shipped.'));
    expect(user).toContain('applies-to="packages/web/src/app.tsx"');
    expect(user).not.toContain('not chosen');
  });

  it('renders the working directory chain byte for byte as a task without paths does', async () => {
    const alone = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api']);
    const focused = await runCliJson(['--repo', repo.dir, '--cwd', 'packages/api', '--path', 'packages/web', '--path', 'packages/db']);
    const commitPart = (turn: typeof alone) => turn.items[0]?.type === 'message' ? turn.items[0].parts?.find((part) => part.stability === 'commit')?.text : undefined;
    expect(commitPart(focused)).toBeDefined();
    expect(commitPart(focused)).toBe(commitPart(alone));
    expect(alone.focusPaths).toBeUndefined();
  });

  it('gives two files with the same blob once, applying to both paths', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--path', 'packages/twin-a', '--path', 'packages/twin-b']);
    const { entries } = ofProvider(turn, 'rules');
    expect(entries.map((e) => e.title)).toEqual(['AGENTS.md', 'packages/twin-a/AGENTS.md']);
    expect(entries[1]?.appliesTo).toEqual({ paths: ['packages/twin-a', 'packages/twin-b'], total: 2 });
    expect(entries[1]?.warnings).toContainEqual(expect.stringMatching(/^packages\/twin-b\/AGENTS\.md has the same content \(blob [0-9a-f]{12}\) and is given once, as packages\/twin-a\/AGENTS\.md$/));
    expect(userMessage(turn).split('The same rules, kept in two places.')).toHaveLength(2);
  });

  it('gives a path that is not in the tree at the commit the chain of its nearest directory, and says so', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--path', 'packages/web/src/widgets/new.tsx']);
    const { entries, outcome } = ofProvider(turn, 'rules');
    expect(entries.map((e) => e.title)).toEqual(['AGENTS.md', 'packages/web/AGENTS.md']);
    expect(outcome?.reason).toContain('packages/web/src/widgets/new.tsx: packages/web/src/widgets is not in the tree at this commit; the rules of packages/web/src apply');
  });

  it('follows at most 64 directories of 100 focus paths and tells the model which were not read', async () => {
    const paths = Array.from({ length: 100 }, (_, i) => ['--path', `many/d${String(i).padStart(3, '0')}`]).flat();
    const run = await runCli(['--repo', repo.dir, ...paths, '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--path: at most 64 paths');

    const turn = await runCliJson(['--repo', repo.dir, ...paths.slice(0, 128)]);
    const { entries, outcome } = ofProvider(turn, 'rules');
    // The root, many/, and 62 of the 64 named directories fill the bound of 64.
    expect(entries).toHaveLength(63);
    expect(entries.at(-1)?.title).toBe('many/d061/AGENTS.md');
    expect(outcome?.reason).toContain('2 directories past the bound of 64 were not read');
    expect(userMessage(turn)).toContain("The rules of 2 more directories on the focus paths' chains were not read: at most 64 directories are followed (many/d062, many/d063).");
  });

  it('refuses a --path that climbs out or is absolute, naming --path (exit 2)', async () => {
    for (const bad of ['../outside', 'a/../b', '/etc/passwd']) {
      const run = await runCli(['--repo', repo.dir, '--path', bad]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^groundwork: --path: /);
      expect(run.stdout).toBe('');
    }
  });
});

describe('the rules budget across many chains', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', `# Huge root\n${'A general rule that goes on and on.\n'.repeat(2_000)}`);
    repo.write('docs/AGENTS.md', `docs: near rules, ${'specific '.repeat(9)}\n`);
    for (const name of ['a', 'b', 'c']) repo.write(`pkg/${name}/AGENTS.md`, `${name}: near rules, ${'specific '.repeat(9)}\n`);
    repo.commitAll('huge root, small packages');
  });
  afterAll(() => repo.remove());

  it('never starves the file nearest a focus path for a general one: the general one goes, and the model is told', async () => {
    // 80 tokens for five files: a fair 16 each holds none of them, not even a truncation marker;
    // without the root, which is nearest to none of the paths, 20 each holds every nearest file's start.
    const registry = createRegistry([createRulesProvider({ budget: 80 })]);
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'docs', '--path', 'pkg/a', '--path', 'pkg/b', '--path', 'pkg/c'], { registry });
    const { entries, outcome } = ofProvider(turn, 'rules');
    expect(entries.map((e) => [e.title, e.truncated])).toEqual([
      ['docs/AGENTS.md', true],
      ['pkg/a/AGENTS.md', true],
      ['pkg/b/AGENTS.md', true],
      ['pkg/c/AGENTS.md', true],
    ]);
    expect(outcome?.outcome).toBe('included');
    expect(outcome?.reason).toContain('left out AGENTS.md: the 80-token budget could not hold it beside the nearer files');
    const user = userMessage(turn);
    expect(user).toMatch(/<groundwork-notice boundary="[0-9a-f]{16}" provider="rules">\nThe rules file AGENTS\.md was left out: the rules budget of 80 tokens could not hold it beside the nearer ones\. Do not say you followed them/);
    expect(user).not.toContain('A general rule that goes on');
  });
});
