import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS, type AgentConfig } from '../../src/context/agents.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { FORMATS, formatRequest } from '../../src/context/formats/format.ts';
import { promptFromTurn } from '../../src/context/formats/prompt.ts';
import { promptText, sharedPrefix } from '../../src/context/formats/prompt-prefix.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { entry, fakeProvider } from '../support/providers.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { taskView } from '../support/task.ts';

function builtin(name: string): AgentConfig {
  const lookup = resolveAgent(name);
  if (!lookup.ok) throw new Error(lookup.error);
  return lookup.agent;
}

describe('assembleFirstTurn', () => {
  it('gives one rendering and one digest over 50 runs with random provider delays', async () => {
    const digests = new Set<string>();
    const renderings = new Set<string>();
    for (let run = 0; run < 50; run++) {
      const providers = ['system', 'rules', 'rules', 'skills', 'memory', 'rules'].map((category, i) =>
        fakeProvider({
          name: `p${i}`,
          category: category as 'system' | 'rules' | 'skills' | 'memory',
          delayMs: Math.floor(Math.random() * 15),
          entries: [entry(`p${i}-a`, `body ${i} a ✓`), entry(`p${i}-b`, `body ${i} b 漢`)],
        }),
      );
      const turn = await assembleFirstTurn({
        registry: createRegistry(providers),
        agent: builtin('entry'),
        available: ['repo:read'],
        task: taskView(),
        turn: 0,
      });
      digests.add(turn.digest);
      renderings.add(JSON.stringify(turn.messages));
    }
    expect(renderings.size).toBe(1);
    expect(digests.size).toBe(1);
    expect([...digests][0]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('returns the assembled-turn JSON shape with provenance and the agent name', async () => {
    const turn = await assembleFirstTurn({
      registry: createRegistry([fakeProvider({ name: 'rules', requires: ['repo:read'] })]),
      agent: builtin('reviewer'),
      available: ['repo:read'],
      snapshot: await memorySnapshot({}),
      task: taskView(),
      turn: 0,
    });
    expect(AssembledTurnSchema.parse(turn)).toEqual(turn);
    expect(turn).toMatchObject({ agent: 'reviewer', turn: 0, commit: taskView().commit });
    expect(turn.entries[0]).toEqual({
      provider: 'rules',
      category: 'rules',
      title: 'rules',
      source: { uri: 'file:///repo/rules.md', path: 'rules.md', revision: taskView().commit },
      freshness: 'pinned',
      stability: 'task',
      chars: 'rules body'.length,
      truncated: false,
      warnings: [],
    });
    expect(turn.chars).toBe(turn.messages.reduce((sum, m) => sum + m.content.length, 0));
    expect(turn.system).toEqual(turn.messages.slice(0, 3).map((m) => m.content));
    expect(turn.items).toEqual([{ id: 'local:task', type: 'message', role: 'user', content: turn.messages[3]?.content, parts: expect.any(Array) }]);
  });

  it('gives two tasks on one commit with the same context a shared request prefix that ends at the task text, in every format', async () => {
    const stable = fakeProvider({ name: 'rules', entries: [{ ...entry('AGENTS.md', 'Run the tests. '.repeat(200)), stability: 'commit' }] });
    const chosen = fakeProvider({ name: 'skills', category: 'skills', entries: [{ ...entry('Selected skill: tdd', 'Red, green.'), stability: 'task' }] });
    const assemble = (request: string) =>
      assembleFirstTurn({ registry: createRegistry([stable, chosen]), agent: builtin('entry'), available: [], task: taskView({ request }), turn: 0 });
    const [a, b] = [await assemble('Fix the login test.'), await assemble('Document the API.')];
    for (const format of FORMATS) {
      const [textA, textB] = [promptText(formatRequest(format, await promptFromTurn(a))), promptText(formatRequest(format, await promptFromTurn(b)))];
      const shared = textA.slice(0, sharedPrefix(textA, textB).bytes);
      expect(shared, format).toContain('Run the tests. Run the tests.');
      expect(shared, format).toContain('provider=\\"skills\\"');
      expect(shared, format).not.toContain('Fix the login test.');
      expect(sharedPrefix(textA, textB).share, format).toBeGreaterThan(0.9);
    }
  });

  it('gates repository providers for the communicator agent', async () => {
    const turn = await assembleFirstTurn({
      registry: createRegistry([fakeProvider({ name: 'rules', requires: ['repo:read'] })]),
      agent: builtin('communicator'),
      available: ['repo:read'],
      task: taskView(),
      turn: 0,
    });
    expect(turn.providers[0]).toMatchObject({ outcome: 'capability-gated', reason: 'agent "communicator" does not grant repo:read' });
    expect(turn.entries).toEqual([]);
  });

  it('renders a notice in place of rules for an untrusted task and never runs the provider', async () => {
    let ran = false;
    const turn = await assembleFirstTurn({
      registry: createRegistry([fakeProvider({ name: 'rules', requires: ['repo:read'], onRun: () => (ran = true) })]),
      agent: builtin('entry'),
      available: ['repo:read'],
      task: taskView({ trusted: false }),
      turn: 0,
    });
    expect(ran).toBe(false);
    expect(turn.providers[0]).toMatchObject({ outcome: 'capability-gated', reason: 'task is untrusted: repo:read is withheld' });
    expect(turn.messages[3]?.content).toMatch(/<groundwork-notice boundary="[0-9a-f]{16}" provider="rules">\nRepository rules \(AGENTS\.md and similar files\) were not read/);
  });

  it('changes the digest when the agent configuration changes', async () => {
    const input = { registry: createRegistry([fakeProvider({ name: 'rules' })]), available: [], task: taskView(), turn: 0 } as const;
    const a = await assembleFirstTurn({ ...input, agent: builtin('entry') });
    const b = await assembleFirstTurn({ ...input, agent: builtin('explorer') });
    expect(a.digest).not.toBe(b.digest);
  });
});

describe('agent configurations', () => {
  it('names the known agents when asked for an unknown one', () => {
    expect(resolveAgent('wizard')).toEqual({ ok: false, error: 'unknown agent "wizard"; known agents: entry, reviewer, explorer, communicator' });
  });

  it('gives explorer read-only tools and communicator no repository capability', () => {
    expect(BUILTIN_AGENTS.get('explorer')?.tools.map((t) => t.name)).toEqual(['read_file', 'list_directory', 'search_code']);
    expect(BUILTIN_AGENTS.get('communicator')?.capabilities).not.toContain('repo:read');
  });
});
