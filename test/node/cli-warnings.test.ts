import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI, runCli } from './cli-support.ts';

describe('what the CLI tells a user about their checkout', () => {
  let repo: GitFixture;
  let head: string;

  beforeEach(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', 'Committed root rules.\n');
    repo.write('services/auth/AGENTS.md', 'Committed auth rules.\n');
    repo.write('.agents/skills/tdd/SKILL.md', '---\nname: tdd\ndescription: Test first.\n---\nRed, green.\n');
    head = repo.commitAll('base');
  });
  afterEach(() => repo.remove());

  it('warns that edited, new and deleted rules and skill files are not shown, and shows HEAD', async () => {
    repo.write('AGENTS.md', 'Edited, not committed.\n');
    repo.write('services/CLAUDE.md', 'New, not committed.\n');
    rmSync(join(repo.dir, '.agents/skills/tdd/SKILL.md'));
    const run = await runCli(['--repo', repo.dir, '--cwd', 'services/auth']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: AGENTS.md has uncommitted changes; showing HEAD');
    expect(run.stderr).toContain('warning: services/CLAUDE.md is not committed; showing HEAD without it');
    expect(run.stderr).toContain('warning: .agents/skills/tdd/SKILL.md is deleted in the working tree; showing HEAD');
    expect(run.stdout).toContain('Committed root rules.');
    expect(run.stdout).not.toContain('Edited, not committed.');
  });

  it('says nothing about the working tree when another commit is pinned', async () => {
    repo.write('AGENTS.md', 'second\n');
    repo.commitAll('second');
    repo.write('AGENTS.md', 'edited\n');
    const run = await runCli(['--repo', repo.dir, '--ref', head]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('uncommitted');
  });

  it('warns about a --skill that selects nothing, even where there is no skills index', async () => {
    const known = await runCli(['--repo', repo.dir, '--skill', 'tdd', '--skill', 'deploy']);
    expect(known.stderr).toContain('deploy');
    expect(known.stderr).not.toMatch(/tdd.*no such skill/);
    rmSync(join(repo.dir, '.agents'), { recursive: true });
    repo.commitAll('no skills');
    const none = await runCli(['--repo', repo.dir, '--skill', 'deploy']);
    expect(none.stderr).toMatch(/warning: --skill deploy selected nothing \(.*no skills under/);
  });

  it('reads the repository the user stands in, with the rules of the directory they stand in', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BUILT_CLI, '--json'], { cwd: join(repo.dir, 'services/auth') });
    const turn = AssembledTurnSchema.parse(JSON.parse(stdout));
    expect(turn.entries.filter((e) => e.provider === 'rules').map((e) => e.source.path)).toEqual(['AGENTS.md', 'services/auth/AGENTS.md']);
    expect(turn.messages.at(-1)?.content).toContain('cwd="services/auth"');
    expect(stderr).toBe('');
  });
});
