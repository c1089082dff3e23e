import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import type { EarlierEntry } from '../../src/context/provider.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { gatherContext } from '../../src/context/turn.ts';
import { createFreshnessProvider } from '../../src/providers/freshness/provider.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { COMMIT } from '../support/providers.ts';
import { taskView } from '../support/task.ts';

const lookup = resolveAgent('entry');
if (!lookup.ok) throw new Error(lookup.error);
const agent = lookup.agent;
const registry = createRegistry([createFreshnessProvider()]);

/** What turn 0 recorded of the rules provider's AGENTS.md. */
const RULES: EarlierEntry = { turn: 0, provider: 'rules', category: 'rules', title: 'AGENTS.md', source: { uri: 'file:///repo/AGENTS.md', path: 'AGENTS.md', revision: COMMIT, blob: 'a'.repeat(40) } };

describe('the freshness provider without the repository', () => {
  it('runs without repo:read, so it is never gated and never counts as a repository reader, and says nothing when nothing was read', async () => {
    const gathered = await gatherContext({ registry, agent, available: [], task: taskView({ ref: 'main' }), turn: 1, history: [] });
    expect(gathered.outcomes).toEqual([expect.objectContaining({ name: 'freshness', outcome: 'empty', reason: 'no repository source reached the model on earlier turns' })]);
    expect(gathered.entries).toEqual([]);
  });

  it('tells the model it could not check sources it was given, naming why, instead of staying silent', async () => {
    const gathered = await gatherContext({ registry, agent, available: [], task: taskView({ ref: 'main' }), turn: 1, history: [RULES] });
    expect(gathered.outcomes[0]).toMatchObject({ name: 'freshness', outcome: 'included' });
    expect(gathered.entries).toHaveLength(1);
    expect(gathered.entries[0]).toMatchObject({ title: 'Freshness: could not check main', freshness: 'volatile', source: { uri: 'groundwork:freshness' } });
    expect(gathered.entries[0]?.body).toMatch(/^Could not check whether main moved since your context was read at [0-9a-f]{7}: the repository could not be read \(repo:read /);
  });
});

describe('the freshness provider when it cannot finish', () => {
  it('leaves a host notice that the model must not assume its sources are current, the same on every retry', async () => {
    // A remote that never answers and a provider timeout below the check's own deadline.
    const snapshot = await memorySnapshot({ 'AGENTS.md': '# Rules\n' }, COMMIT);
    const source: RepositorySource = { repository: 'file:///repo', resolve: () => new Promise(() => undefined), snapshot: () => snapshot };
    const slow = createRegistry([createFreshnessProvider({ timeoutMs: 60 })]);
    const run = () => gatherContext({ registry: slow, agent, available: ['repo:read'], source, snapshot, task: taskView({ ref: 'main', commit: COMMIT }), turn: 1, history: [RULES] });
    const [first, retry] = [await run(), await run()];
    expect(first.outcomes).toEqual([expect.objectContaining({ name: 'freshness', outcome: 'timed-out' })]);
    expect(first.notices).toEqual([
      {
        provider: 'freshness',
        stability: 'task',
        text: 'Whether the repository sources you were given are still current could not be checked (timed out after 60 ms). Do not assume they are current; re-read the rules, skills and files you rely on before acting.',
      },
    ]);
    expect(retry.notices).toEqual(first.notices);
  });
});
