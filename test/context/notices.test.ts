import { describe, expect, it } from 'vitest';
import type { AgentConfig } from '../../src/context/agents.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { renderContext } from '../../src/context/render.ts';
import { assembleFirstTurn, gatherContext } from '../../src/context/turn.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { entry, fakeProvider } from '../support/providers.ts';
import { withoutBoundaries } from '../support/sections.ts';
import { taskView } from '../support/task.ts';

function agent(name: string): AgentConfig {
  const lookup = resolveAgent(name);
  if (!lookup.ok) throw new Error(lookup.error);
  return lookup.agent;
}

const RULES_TIMED_OUT =
  'Repository rules (AGENTS.md and similar files) could not be read (timed out after 40 ms). Do not say you followed the repository’s rules; say they were unavailable.';

const parts = (turn: Awaited<ReturnType<typeof assembleFirstTurn>>) => {
  const [task] = turn.items;
  return task?.type === 'message' ? (task.parts ?? []).map((part) => ({ ...part, text: withoutBoundaries(part.text) })) : [];
};

describe('honest notices', () => {
  it('tells the model that rules timed out, in the task-dependent part, with the same bytes on every retry', async () => {
    const run = (hangMs: number) =>
      assembleFirstTurn({
        registry: createRegistry([
          fakeProvider({ name: 'rules', category: 'rules', turns: 'first', timeoutMs: 40, delayMs: hangMs, entries: [{ ...entry('AGENTS.md', 'Use tabs.'), stability: 'commit' }] }),
          fakeProvider({ name: 'skills', category: 'skills', turns: 'first', entries: [{ ...entry('Skills index', '- tdd'), stability: 'commit' }] }),
        ]),
        agent: agent('entry'),
        available: [],
        task: taskView(),
        turn: 0,
      });
    const [first, retry] = [await run(200), await run(400)];
    expect(first.providers[0]).toMatchObject({ name: 'rules', outcome: 'timed-out' });
    expect(first.providers[0]?.durationMs).toBeGreaterThanOrEqual(40);
    expect(parts(first).map((part) => part.stability)).toEqual(['commit', 'task', 'task']);
    expect(parts(first)[0]?.text).not.toContain('groundwork-notice');
    expect(parts(first)[1]?.text).toBe(`<groundwork-notice provider="rules">\n${RULES_TIMED_OUT}\n</groundwork-notice>`);
    expect(first.messages[3]?.content).not.toContain('Use tabs.');
    expect(retry.digest).toBe(first.digest);
    expect(retry.messages).toEqual(first.messages);
  });

  it('names each way a rules, skills or memory provider can come up empty-handed, and says nothing for a system provider', async () => {
    const turn = await assembleFirstTurn({
      registry: createRegistry([
        fakeProvider({ name: 'rules', category: 'rules', throws: 'ECONNRESET from git.example.com after 1234 ms' }),
        fakeProvider({ name: 'skills', category: 'skills', budget: 1, entries: [entry('Skills index', 'x'.repeat(400))] }),
        fakeProvider({ name: 'memory', category: 'memory', entries: [{ title: '', body: 'no title' }] }),
        fakeProvider({ name: 'facts', category: 'system', throws: 'GitHub down' }),
      ]),
      agent: agent('entry'),
      available: [],
      task: taskView(),
      turn: 0,
    });
    expect(turn.providers.map((p) => [p.name, p.outcome])).toEqual([
      ['facts', 'failed'],
      ['rules', 'failed'],
      ['skills', 'budget-excluded'],
      ['memory', 'invalid'],
    ]);
    const user = withoutBoundaries(turn.messages[3]?.content ?? '');
    expect(user).toContain(
      '<groundwork-notice provider="rules">\nRepository rules (AGENTS.md and similar files) could not be read (the provider failed). Do not say you followed the repository’s rules; say they were unavailable.\n</groundwork-notice>',
    );
    // The failure's own text (with a measured duration) stays in the outcome, out of the prompt.
    expect(user).not.toContain('ECONNRESET');
    expect(user).toContain(
      '<groundwork-notice provider="memory">\nKnowledge recorded about this repository could not be read (the provider’s configuration or output was invalid). Do not say you checked what was recorded about this repository; say it was unavailable.\n</groundwork-notice>',
    );
    expect(user).toContain(
      '<groundwork-notice provider="skills">\nRepository skills were left out: they did not fit the context budget. Do not say you used the repository’s skills; say they were unavailable.\n</groundwork-notice>',
    );
    expect(user).not.toContain('provider="facts"');
  });

  it('says so when rules did not fit the total budget', async () => {
    const turn = await assembleFirstTurn({
      registry: createRegistry([fakeProvider({ name: 'rules', category: 'rules', entries: [entry('AGENTS.md', 'y'.repeat(40_000))], budget: 20_000 })]),
      agent: { ...agent('entry'), totalBudget: 100 },
      available: [],
      task: taskView(),
      turn: 0,
    });
    expect(turn.providers[0]).toMatchObject({ outcome: 'budget-excluded' });
    expect(withoutBoundaries(turn.messages[3]?.content ?? '')).toContain(
      'Repository rules (AGENTS.md and similar files) were left out: they did not fit the context budget. Do not say you followed the repository’s rules; say they were unavailable.',
    );
  });

  it('puts a notice for a capability the agent lacks in the commit-stable part, and keeps the untrusted notice word for word', async () => {
    const registry = createRegistry([
      fakeProvider({ name: 'rules', category: 'rules', requires: ['repo:read'], entries: [{ ...entry('rules', 'rules body'), stability: 'commit' }] }),
      fakeProvider({ name: 'memory', category: 'memory', requires: ['knowledge:read'], entries: [{ ...entry('memory', 'memory body'), stability: 'commit' }] }),
    ]);
    const snapshot = await memorySnapshot({});
    // Explorer leaves memory out by design (no notice then); selected, it is gated by the agent's capabilities.
    const explorer = await assembleFirstTurn({ registry, agent: { ...agent('explorer'), providers: 'all' }, available: ['repo:read'], snapshot, task: taskView(), turn: 0 });
    expect(parts(explorer)[0]).toEqual({
      stability: 'commit',
      text: '<groundwork-notice provider="memory">\nKnowledge recorded about this repository was not read: agent "explorer" does not grant knowledge:read. Do not say you checked what was recorded about this repository; say it was unavailable.\n</groundwork-notice>\n\n<groundwork-context provider="rules" category="rules" title="rules" source="rules.md@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" uri="file:///repo/rules.md" freshness="pinned">\nrules body\n</groundwork-context>',
    });
    const untrusted = await assembleFirstTurn({ registry, agent: agent('entry'), available: ['repo:read', 'knowledge:read'], knowledge: { active: async () => [] }, snapshot, task: taskView({ trusted: false }), turn: 0 });
    expect(parts(untrusted)[0]?.text).toBe(
      '<groundwork-notice provider="rules">\nRepository rules (AGENTS.md and similar files) were not read: this task is untrusted, so no repository content was read automatically. Treat the repository’s own instructions as unknown.\n</groundwork-notice>\n\n<groundwork-context provider="memory" category="memory" title="memory" source="memory.md@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" uri="file:///repo/memory.md" freshness="pinned">\nmemory body\n</groundwork-context>',
    );
  });

  it('adds no notice on a later turn for a first-turn provider, and one for an all-turn provider that fails then', async () => {
    const registry = createRegistry([
      fakeProvider({ name: 'rules', category: 'rules', turns: 'first', requires: ['repo:read'] }),
      fakeProvider({ name: 'memory', category: 'memory', turns: 'all', throws: 'knowledge store down' }),
    ]);
    const later = await gatherContext({ registry, agent: agent('communicator'), available: [], task: taskView({ trusted: false }), turn: 1 });
    expect(later.outcomes.map((o) => [o.name, o.outcome])).toEqual([
      ['rules', 'turn-gated'],
      ['memory', 'failed'],
    ]);
    expect(withoutBoundaries(renderContext(later.entries, later.notices))).toBe(
      '<groundwork-notice provider="memory">\nKnowledge recorded about this repository could not be read (the provider failed). Do not say you checked what was recorded about this repository; say it was unavailable.\n</groundwork-notice>',
    );
  });
});
