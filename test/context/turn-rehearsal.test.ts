/**
 * The turn 0 rehearsal (context/turn-rehearsal, issue 56): what it runs is the turn's real code
 * over its in-memory repository, so it has done its work only if the providers read every file
 * it holds; and an isolate runs it once, however many first turns ask, and a failed one is a
 * warning, never a turn's failure.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { turns } from '../../durable-objects/request-signal.ts';
import { BUILTIN_AGENTS } from '../../src/context/agents.ts';
import { onceRehearsal, rehearse, rehearseReads } from '../../src/context/turn-rehearsal.ts';
import { MEMORY_API_URL } from '../../src/sources/github/read-ahead-rehearsal.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';

const FAILED = ['failed', 'timed-out', 'invalid'];

afterEach(() => vi.restoreAllMocks());

describe('the turn 0 rehearsal', () => {
  it("reads each rule format, the skill and the settings it holds, for every built-in agent that reads the repository, and makes the rules matrix of the change", async () => {
    const readers = [...BUILTIN_AGENTS.values()].filter((agent) => agent.name !== 'communicator');
    expect(readers.map((agent) => agent.name)).toEqual(['entry', 'reviewer', 'explorer']);
    for (const agent of readers) {
      const { turn, matrix } = await rehearse({ registry: createDefaultRegistry(), agent, clients: ['claude-code', 'codex'] });
      expect(turn.providers.filter((provider) => FAILED.includes(provider.outcome)), agent.name).toEqual([]);
      const read = turn.entries.flatMap((entry) => (entry.source.path ? [`${entry.provider} ${entry.source.path}`] : []));
      expect(read, agent.name).toEqual(
        expect.arrayContaining([
          'rules AGENTS.md',
          'rules packages/app/AGENTS.md',
          'rules .cursor/rules/style.mdc',
          'rules .github/copilot-instructions.md',
          'rules .github/instructions/ts.instructions.md',
          'skills .agents/skills',
        ]),
      );
      expect(turn.settings?.layers.find((layer) => layer.layer === 'repository')).toMatchObject({ status: 'applied', source: expect.stringMatching(/^\.groundwork\.yml@/) });
      // The pull request's one changed file was listed to the rules, as a GitHub task's are.
      expect(turn.providers.find((provider) => provider.name === 'rules')?.reason ?? '').not.toMatch(/not listed/);
      // The check run's matrix: each rule file of the change with a cell for each client asked.
      expect(matrix.clients).toEqual(['codex', 'claude-code']);
      expect(matrix.files.map((file) => file.path)).toEqual(expect.arrayContaining(['AGENTS.md', 'packages/app/AGENTS.md', 'CLAUDE.md', '.cursor/rules/style.mdc', '.github/instructions/ts.instructions.md']));
      expect(matrix.files.find((file) => file.path === 'AGENTS.md')?.clients?.map((cell) => cell.client)).toEqual(['none', 'codex', 'claude-code']);
    }
  });

  it("reads the repository as a GitHub task reads turn 0's: the whole plan in one read-ahead query, every planned directory and file served from it", async () => {
    for (const name of ['entry', 'reviewer', 'explorer']) {
      const agent = BUILTIN_AGENTS.get(name);
      if (!agent) throw new Error(`no ${name}`);
      const { requests, found, failed } = await rehearseReads({ registry: createDefaultRegistry(), agent });
      expect(requests, name).toEqual([`POST ${MEMORY_API_URL}/graphql`]);
      // The settings file, the rule chain's files and directories, the skills' directory: found,
      // and every other planned path answered missing from the read-ahead, none failed.
      expect(failed, name).toBe(0);
      expect(found, name).toBeGreaterThanOrEqual(5);
    }
  });

  it('reads only once the caller says the next request is out, and counts as run only after reading', async () => {
    const agent = BUILTIN_AGENTS.get('reviewer');
    if (!agent) throw new Error('no reviewer');
    let out = () => {};
    const readsAfter = vi.fn(() => new Promise<void>((resolve) => (out = resolve)));
    const reads = vi.fn(() => Promise.resolve({ requests: [], found: 0, failed: 0 }));
    const shared = onceRehearsal(() => Promise.resolve({}) as ReturnType<typeof rehearse>, reads);
    let settled: boolean | undefined;
    void shared({ registry: createDefaultRegistry(), agent, clients: [], readsAfter }).then((value) => (settled = value));
    await turns(3);
    expect(readsAfter).toHaveBeenCalledTimes(1);
    expect(reads).not.toHaveBeenCalled();
    expect(settled).toBeUndefined();
    out();
    await turns(3);
    expect(settled).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('runs once for every caller, and a failed rehearsal is one warning and no rejection', async () => {
    const agent = BUILTIN_AGENTS.get('reviewer');
    if (!agent) throw new Error('no reviewer');
    const runs = vi.fn(rehearse);
    const shared = onceRehearsal(runs);
    const input = { registry: createDefaultRegistry(), agent, clients: ['codex' as const] };
    const calls = [shared(input), shared({ ...input, clients: ['claude-code'] })];
    expect(calls[1]).toBe(calls[0]);
    await expect(Promise.all(calls)).resolves.toEqual([true, true]);
    expect(runs).toHaveBeenCalledTimes(1);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failing = onceRehearsal(() => Promise.reject(new Error('no registry')));
    await expect(failing(input)).resolves.toBe(false);
    await expect(failing(input)).resolves.toBe(false);
    expect(warn.mock.calls).toEqual([['turn 0 rehearsal: no registry']]);
  });
});
