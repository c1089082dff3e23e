import { describe, expect, it } from 'vitest';
import { grantCapabilities } from '../../src/context/capabilities.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { runProviders } from '../../src/context/runner.ts';
import { createRulesProvider } from '../../src/providers/rules/provider.ts';
import { createSkillsProvider } from '../../src/providers/skills/provider.ts';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { taskView } from '../support/task.ts';

const REPOSITORY = {
  'AGENTS.md': 'Use tabs.\n',
  'docs/AGENTS.md': 'Document every flag.\n',
  '.agents/skills/lint/SKILL.md': '---\nname: lint\ndescription: Run the linter.\n---\nRun `npm run lint`.\n',
};

/** The repository, except that listing or reading `path` fails as a source that timed out or got a 502 does. */
async function failingAt(operation: 'list' | 'read', path: string): Promise<Snapshot> {
  const snapshot = await memorySnapshot(REPOSITORY);
  const failed = { status: 'failed' as const, path, reason: 'upstream 502' };
  return {
    ...snapshot,
    list: (dir, options) => (operation === 'list' && dir === path ? Promise.resolve(failed) : snapshot.list(dir, options)),
    read: (file, options) => (operation === 'read' && file === path ? Promise.resolve(failed) : snapshot.read(file, options)),
  };
}

async function outcomesOn(snapshot: Snapshot) {
  const run = await runProviders({
    registry: createRegistry([createRulesProvider(), createSkillsProvider()]),
    selection: 'all',
    task: taskView({ cwd: 'docs' }),
    turn: 0,
    capabilities: grantCapabilities({ agent: { name: 'entry', capabilities: ['repo:read'] }, trusted: true, available: ['repo:read'] }),
    totalBudget: 10_000,
    snapshot,
  });
  return Object.fromEntries(run.outcomes.map((outcome) => [outcome.name, { outcome: outcome.outcome, reason: outcome.reason }]));
}

// Every read a provider makes can fail; each failure leaves what the provider reports unknown.
describe('a source that could not be read is failed, never empty', () => {
  const cases = [
    // Both read the working directory's chain: the skills provider for nested skill roots.
    { provider: 'rules', operation: 'list', path: '', reason: 'could not list .: upstream 502', skills: 'could not list . (looking for nested skill roots): upstream 502' },
    { provider: 'rules', operation: 'list', path: 'docs', reason: 'could not list docs: upstream 502', skills: 'could not list docs (looking for nested skill roots): upstream 502' },
    { provider: 'rules', operation: 'read', path: 'docs/AGENTS.md', reason: 'could not read docs/AGENTS.md: upstream 502' },
    { provider: 'skills', operation: 'list', path: '.agents/skills', reason: 'could not list .agents/skills (root .agents/skills/*/): upstream 502' },
    { provider: 'skills', operation: 'read', path: '.agents/skills/lint/SKILL.md', reason: 'could not read .agents/skills/lint/SKILL.md: upstream 502' },
  ] as const;
  it.each(cases.map((c) => [c.provider, c.operation, c.path || '.', c] as const))('fails %s when it cannot %s %s, and leaves the other provider its reads', async (_provider, _operation, _path, c) => {
    const outcomes = await outcomesOn(await failingAt(c.operation, c.path));
    expect(outcomes[c.provider]).toEqual({ outcome: 'failed', reason: c.reason });
    const other = c.provider === 'rules' ? 'skills' : 'rules';
    if ('skills' in c) expect(outcomes['skills']).toEqual({ outcome: 'failed', reason: c.skills });
    else expect(outcomes[other]?.outcome).toBe('included');
  });

  it('includes both when nothing fails', async () => {
    const outcomes = await outcomesOn(await memorySnapshot(REPOSITORY));
    expect([outcomes['rules']?.outcome, outcomes['skills']?.outcome]).toEqual(['included', 'included']);
  });
});
