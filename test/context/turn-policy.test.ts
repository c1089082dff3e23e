import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { grantCapabilities } from '../../src/context/capabilities.ts';
import { defineProvider, type Moved, type Provider, type ProviderResult, type TurnPolicy } from '../../src/context/provider.ts';
import { planReads, pullRequestFilesNeeded } from '../../src/context/read-ahead.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { runProviders } from '../../src/context/runner.ts';
import { gatherContext, readsRepository } from '../../src/context/turn.ts';
import { renderContext } from '../../src/context/render.ts';
import { entry } from '../support/providers.ts';
import { taskView } from '../support/task.ts';

const grant = grantCapabilities({ agent: { name: 'entry', capabilities: ['repo:read', 'github:api'] }, trusted: true, available: ['repo:read', 'github:api'] });

/** A provider whose result is fixed, recording what it was asked. */
function provider(name: string, turns: TurnPolicy, result: ProviderResult, seen: Moved[] = []): Provider {
  return defineProvider({
    name,
    category: 'rules',
    config: z.object({}),
    requires: [],
    turns,
    timeoutMs: 1_000,
    budget: 1_000,
    plan: () => ({ dirs: [name], files: [], walks: [] }),
    pullRequestFilesNeeded: () => (name === 'wide' ? 250 : 10),
    async run({ moved }) {
      seen.push(moved);
      return result;
    },
  });
}

const moved: Moved = { paths: ['packages/web'], skills: [], rules: [] };

describe("turn policy 'moved'", () => {
  it('runs on turn 0, and on a later turn only when the host recorded new focus, which it is handed', async () => {
    const seen: Moved[] = [];
    const registry = createRegistry([provider('follows', 'moved', { entries: [entry('r', 'rules')] }, seen)]);
    const base = { registry, selection: 'all' as const, task: taskView(), capabilities: grant, totalBudget: 1_000 };
    expect((await runProviders({ ...base, turn: 0 })).outcomes[0]?.outcome).toBe('included');
    const still = await runProviders({ ...base, turn: 2 });
    expect(still.outcomes[0]).toMatchObject({ outcome: 'turn-gated', reason: 'runs on a later turn only when the host recorded new focus paths or names for it (this is turn 2, with none)' });
    expect((await runProviders({ ...base, turn: 2, moved })).outcomes[0]?.outcome).toBe('included');
    expect(seen).toEqual([{ paths: [], skills: [], rules: [] }, moved]);
  });

  it('decides the read plan and whether a later turn reads the repository the same way', () => {
    const lookup = resolveAgent('entry');
    if (!lookup.ok) throw new Error(lookup.error);
    const registry = createRegistry([
      defineProvider({ ...provider('follows', 'moved', { entries: [] }), requires: ['repo:read'] }),
      defineProvider({ ...provider('first', 'first', { entries: [] }), requires: ['repo:read'] }),
    ]);
    const input = { registry, agent: lookup.agent, task: taskView(), available: ['repo:read' as const] };
    expect(planReads({ ...input, turn: 0 }).dirs).toEqual(['first', 'follows']);
    expect(planReads({ ...input, turn: 1 }).dirs).toEqual([]);
    expect(planReads({ ...input, turn: 1, moved }).dirs).toEqual(['follows']);
    expect(readsRepository({ ...input, turn: 1 })).toBe(false);
    expect(readsRepository({ ...input, turn: 1, moved })).toBe(true);
  });

  it("lists as many of a pull request's files as the most demanding provider that will run asks for, and none without github:api", () => {
    const lookup = resolveAgent('entry');
    const explorer = resolveAgent('explorer');
    if (!lookup.ok || !explorer.ok) throw new Error('agents');
    const registry = createRegistry([provider('wide', 'first', { entries: [] }), provider('narrow', 'first', { entries: [] })]);
    const pullRequest = { number: 1, headSha: 'c'.repeat(40), fromFork: false };
    const input = { registry, task: taskView({ pullRequest }), turn: 0, available: ['repo:read' as const, 'github:api' as const] };
    expect(pullRequestFilesNeeded({ ...input, agent: lookup.agent })).toBe(250);
    expect(pullRequestFilesNeeded({ ...input, agent: lookup.agent, settings: { task: { wide: { enabled: false } } } })).toBe(10);
    expect(pullRequestFilesNeeded({ ...input, agent: explorer.agent })).toBe(0);
    expect(pullRequestFilesNeeded({ ...input, agent: lookup.agent, task: taskView() })).toBe(0);
  });
});

describe('notices a provider asks for', () => {
  it('render as host notices when it delivered, and give way to the category notice when it did not', async () => {
    const lookup = resolveAgent('entry');
    if (!lookup.ok) throw new Error(lookup.error);
    const notice = { text: 'The rules of pkg/x were left out.', stability: 'task' as const };
    const registry = createRegistry([
      provider('delivered', 'first', { entries: [entry('r', 'rules')], notices: [notice] }),
      provider('nothing', 'first', { entries: [], notices: [{ ...notice, text: 'Nothing here was read.' }] }),
      defineProvider({ ...provider('over', 'first', { entries: [entry('big', 'x'.repeat(8_000))], notices: [{ ...notice, text: 'Never shown.' }] }), budget: 1 }),
    ]);
    const gathered = await gatherContext({ registry, agent: lookup.agent, available: [], task: taskView(), turn: 0 });
    expect(gathered.notices.map((n) => [n.provider, n.text])).toEqual([
      ['over', expect.stringMatching(/^Repository rules \(AGENTS\.md and similar files\) were left out: they did not fit the context budget\./)],
      ['delivered', 'The rules of pkg/x were left out.'],
      ['nothing', 'Nothing here was read.'],
    ]);
    expect(renderContext(gathered.entries, gathered.notices)).toContain('provider="delivered">\nThe rules of pkg/x were left out.\n');
  });

  it('name the rules files the total budget dropped from a provider that delivered the rest', async () => {
    const registry = createRegistry([provider('chain', 'first', { entries: [entry('AGENTS.md', 'a'.repeat(400)), entry('pkg/AGENTS.md', 'b'.repeat(400))] })]);
    const result = await runProviders({ registry, selection: 'all', task: taskView(), turn: 0, capabilities: grant, totalBudget: 150 });
    expect(result.outcomes[0]).toMatchObject({ outcome: 'included', reason: 'dropped for the total budget of 150 tokens: pkg/AGENTS.md' });
    expect(result.notices).toEqual([
      {
        provider: 'chain',
        text: 'Part of repository rules (AGENTS.md and similar files) was left out to fit the context budget: "pkg/AGENTS.md". For those, do not say you followed the repository’s rules; say they were unavailable.',
        stability: 'task',
      },
    ]);
  });

  it('are bounded: a provider that asks for too many, or too long ones, is invalid', async () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ text: `notice ${i}`, stability: 'task' as const }));
    const registry = createRegistry([provider('chatty', 'first', { entries: [entry('r', 'rules')], notices: many })]);
    const result = await runProviders({ registry, selection: 'all', task: taskView(), turn: 0, capabilities: grant, totalBudget: 1_000 });
    expect(result.outcomes[0]).toMatchObject({ outcome: 'invalid', reason: expect.stringContaining('notices') });
    expect(result.notices).toEqual([]);
  });
});
