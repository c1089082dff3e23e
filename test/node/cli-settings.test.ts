import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { countingSource } from '../support/counting-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { runCli, runCliJson, userMessage } from './cli-support.ts';

describe('groundwork context: provider settings', () => {
  let repo: GitFixture;
  let configured: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Agents\n');
    repo.write('GEMINI.md', '# Gemini\n\nUse the Gemini rules.\n');
    repo.write('.gemini/skills/triage/SKILL.md', '---\nname: triage\ndescription: Triage an issue.\n---\nLabel it.\n');
    repo.write('tools/skills/bench/SKILL.md', '---\nname: bench\ndescription: Run the benchmarks.\n---\nnpm run bench\n');
    repo.commitAll('plain');
    configured = createGitRepo();
    configured.write('GEMINI.md', '# Gemini\n');
    configured.write('.groundwork.yml', 'providers:\n  rules: { filenames: [GEMINI.md] }\n');
    configured.commitAll('configured');
  });
  afterAll(() => {
    repo.remove();
    configured.remove();
  });

  it('finds skills in .gemini/skills by default', async () => {
    const turn = await runCliJson(['--repo', repo.dir]);
    expect(userMessage(turn)).toContain('- triage: Triage an issue. (.gemini/skills/triage/SKILL.md)');
  });

  it('maps --rule-file and --skills-root onto the task layer', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--rule-file', 'GEMINI.md', '--skills-root', 'tools/skills/*']);
    expect(turn.entries.filter((entry) => entry.category !== 'system').map((entry) => entry.title)).toEqual(['GEMINI.md', 'Skills index']);
    expect(userMessage(turn)).toContain('- bench:');
    expect(userMessage(turn)).not.toContain('- triage:');
    expect(turn.providers.map((provider) => provider.reason)).toEqual([
      'turn 0: nothing to compare yet',
      'the host stated no facts for this task',
      undefined,
      'github:api is not available for this task',
      'settings: filenames=["GEMINI.md"] (task)',
      'settings: roots=["tools/skills/*"] (task)',
      // The CLI keeps no tasks and no knowledge.
      'tasks:read is not available for this task',
      'knowledge:read is not available for this task',
    ]);
    expect(turn.settings?.layers[2]).toEqual({ layer: 'task', status: 'applied' });
  });

  it('exits 2 naming the option and the value for a setting the schema refuses', async () => {
    for (const [argv, message] of [
      [['--skills-root', '../outside/*'], '--skills-root ../outside/*: path escapes the repository root'],
      [['--rule-file', 'docs/AGENTS.md'], '--rule-file docs/AGENTS.md: a file name, not a path'],
    ] as const) {
      const run = await runCli(['--repo', repo.dir, ...argv]);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    }
  });

  it("shows the repository's settings in the human view and reads none for an untrusted run", async () => {
    const run = await runCli(['--repo', configured.dir]);
    expect(run.stdout).toMatch(/\nsettings {2}repository applied \(\.groundwork\.yml@[0-9a-f]{40}\)\n$/);
    expect(run.stdout).toMatch(/rules\s+rules\s+included\s+\d+\s+\d+\s+\d+\s+settings: filenames=\["GEMINI.md"\] \(\.groundwork\.yml\)/);

    const { source, calls } = countingSource(createLocalGitSource(configured.dir));
    const untrusted = await runCliJson(['--repo', configured.dir, '--untrusted'], { openSource: () => source });
    expect(calls).toEqual({ resolve: 1, list: 0, read: 0, commitInfo: 0 });
    expect(untrusted.settings?.layers[1]).toMatchObject({ status: 'not-read' });
  });

  it('warns on stderr about a settings file it ignores, naming the field', async () => {
    const bad = createGitRepo();
    try {
      bad.write('AGENTS.md', '# Rules\n');
      bad.write('.groundwork.yml', 'providers:\n  skills: { roots: ["/etc/*"] }\n');
      bad.commitAll('bad');
      const run = await runCli(['--repo', bad.dir]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('warning: settings: .groundwork.yml ignored: providers.skills.roots[0]: path is absolute; the other settings apply');
      expect(run.stdout).toMatch(/\nsettings {2}repository ignored \(\.groundwork\.yml@[0-9a-f]{40}\)\n$/);
    } finally {
      bad.remove();
    }
  });
});
