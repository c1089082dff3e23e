import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand } from '../../src/cli/run/run-command.ts';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { ofProvider, runCli, runCliJson, userMessage } from './cli-support.ts';

describe('focus paths through the CLI', () => {
  let repo: GitFixture;
  let commit: string;
  let state: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\nRun the tests before you push.\n');
    repo.write('services/auth/AGENTS.md', 'Tokens never reach logs.\n');
    repo.write('services/billing/AGENTS.md', 'Money is integer cents.\n');
    repo.write('services/billing/src/invoice.ts', 'export {};\n');
    commit = repo.commitAll('two services');
    // A service not committed yet: only the working tree has it.
    repo.write('services/search/AGENTS.md', 'Not committed.\n');
    repo.write('services/search/src/index.ts', 'export {};\n');
    state = mkdtempSync(join(tmpdir(), 'groundwork-focus-state-'));
  });
  afterAll(() => {
    repo.remove();
    rmSync(state, { recursive: true, force: true });
  });

  it('takes a --cwd that exists only in the working tree, with the rules of its nearest committed directory, and says so', async () => {
    const turn = await runCliJson(['--repo', repo.dir, '--cwd', 'services/search/src']);
    expect(userMessage(turn)).toContain('cwd="services/search/src"');
    expect(ofProvider(turn, 'rules').entries.map((e) => e.title)).toEqual(['AGENTS.md']);
    expect(ofProvider(turn, 'rules').outcome?.reason).toContain('the working directory services/search/src: services/search is not in the tree at this commit; the rules of services apply');
    expect(turn.stderr).toContain(`warning: --cwd services/search/src is not in the tree at HEAD (${commit.slice(0, 12)}), only in the working tree: it gets the rules of services as committed`);
    expect(turn.stderr).toContain('warning: services/search/AGENTS.md is not committed; showing HEAD without it');
  });

  it('still refuses a --cwd that is neither committed nor in the working tree (exit 2)', async () => {
    const run = await runCli(['--repo', repo.dir, '--cwd', 'services/nowhere']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--cwd: services/nowhere is not a directory in the tree at HEAD (${commit.slice(0, 12)})`);
  });

  it('assembles the same --path turn through the Worker (groundwork run) as groundwork context does', { timeout: 120_000 }, async () => {
    const inputs = ['--repo', repo.dir, '--cwd', 'services/auth', '--path', 'services/billing/src/invoice.ts', '--task', 'Why are refunds logged?', '--agent', 'explorer'];
    // The explorer reads neither knowledge nor earlier tasks, so both hosts give it the same providers.
    const local = await runCliJson(inputs);
    expect(ofProvider(local, 'rules').entries.map((e) => [e.title, e.stability])).toEqual([
      ['AGENTS.md', 'commit'],
      ['services/auth/AGENTS.md', 'commit'],
      ['services/billing/AGENTS.md', 'task'],
    ]);
    let stdout = '';
    let stderr = '';
    const code = await runRunCommand([...inputs, '--state', state, '--json'], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    expect(code, stderr).toBe(0);
    const served = AssembledTurnSchema.parse(JSON.parse(stdout));
    expect(served.messages).toEqual(local.messages);
    expect(served.settings).toEqual(local.settings);
    expect(served.digest).toBe(local.digest);
    expect(served.focusPaths).toEqual(['services/billing/src/invoice.ts']);
  });
});
