import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand } from '../../src/cli/run/run-command.ts';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { runCliJson } from './cli-support.ts';

const BOOT_TIMEOUT = 120_000;

/** The statement docs/cli.md makes about `groundwork run` and `groundwork context`, tested as written. */
describe('groundwork run and groundwork context on the same inputs', () => {
  let repo: GitFixture;
  let state: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\nRun the tests before you push.\n');
    repo.write('.agents/skills/tdd/SKILL.md', '---\nname: tdd\ndescription: Write the failing test first.\n---\nRed, green, refactor.\n');
    repo.commitAll('rules and a skill');
    state = mkdtempSync(join(tmpdir(), 'groundwork-run-digest-'));
  });
  afterAll(() => {
    repo.remove();
    rmSync(state, { recursive: true, force: true });
  });

  async function both(agent: string): Promise<{ local: AssembledTurn; served: AssembledTurn }> {
    const inputs = ['--repo', repo.dir, '--task', 'Fix the build. Use $tdd.', '--agent', agent];
    const local = await runCliJson(inputs);
    let stdout = '';
    let stderr = '';
    const code = await runRunCommand([...inputs, '--state', state, '--json'], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    expect(code, stderr).toBe(0);
    return { local, served: AssembledTurnSchema.parse(JSON.parse(stdout)) };
  }

  it(
    'agree, digest included, for an agent that reads neither knowledge nor earlier tasks (explorer): nothing differs between the hosts',
    async () => {
      const { local, served } = await both('explorer');
      expect(served.digest).toBe(local.digest);
      expect(served.messages).toEqual(local.messages);
    },
    BOOT_TIMEOUT,
  );

  it(
    'differ for an agent with memory or history (entry, communicator, reviewer): the service grants knowledge:read and tasks:read, the CLI has no store and says so',
    async () => {
      const stores = {
        memory: { capability: 'knowledge:read', notice: 'Knowledge recorded about this repository was not read' },
        history: { capability: 'tasks:read', notice: 'Earlier tasks on this repository were not read' },
      } as const;
      const reads: Array<[string, Array<keyof typeof stores>]> = [
        ['entry', ['memory', 'history']],
        ['communicator', ['memory']],
        ['reviewer', ['history']],
      ];
      const user = (turn: AssembledTurn) => turn.messages.find((m) => m.role === 'user')?.content ?? '';
      for (const [agent, providers] of reads) {
        const { local, served } = await both(agent);
        expect(served.digest, agent).not.toBe(local.digest);
        for (const provider of providers) {
          const { capability, notice } = stores[provider];
          expect(local.providers.find((p) => p.name === provider), agent).toMatchObject({ outcome: 'capability-gated', reason: `${capability} is not available for this task` });
          expect(served.providers.find((p) => p.name === provider)?.outcome, agent).not.toBe('capability-gated');
          const said = new RegExp(`<groundwork-notice boundary="[0-9a-f]{16}" provider="${provider}">\\n${notice}: ${capability} is not available`);
          expect(user(local), agent).toMatch(said);
          expect(user(served), agent).not.toMatch(said);
          // The pin names the capabilities each host granted.
          expect(user(served), agent).toMatch(new RegExp(`capabilities granted: [^\\n]*${capability}`));
          expect(user(local), agent).not.toMatch(new RegExp(`capabilities granted: [^\\n]*${capability}`));
        }
      }
    },
    BOOT_TIMEOUT,
  );
});
