import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import type { EarlierEntry } from '../../src/context/provider.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { gatherContext } from '../../src/context/turn.ts';
import { createFreshnessProvider } from '../../src/providers/freshness/provider.ts';
import { createRulesProvider } from '../../src/providers/rules/provider.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { gitBlobOid, memorySnapshot } from '../support/memory-tree.ts';
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

describe('the freshness provider and the rule set', () => {
  const HEAD = 'b'.repeat(40);
  const withRules = createRegistry([createRulesProvider(), createFreshnessProvider()]);

  /** The pinned commit and `main` at HEAD, in memory. */
  async function moved(before: Record<string, string>, after: Record<string, string>) {
    const [pinned, head] = [await memorySnapshot(before, COMMIT), await memorySnapshot(after, HEAD)];
    const source: RepositorySource = { repository: 'file:///repo', resolve: async () => ({ status: 'ok', commit: HEAD }), snapshot: (commit) => (commit === HEAD ? head : pinned) };
    return { source, snapshot: pinned };
  }

  const given = async (path: string, text: string, turn = 0): Promise<EarlierEntry> => ({ turn, provider: 'rules', category: 'rules', title: path, source: { uri: `file:///repo/${path}`, path, revision: COMMIT, blob: await gitBlobOid(text) } });

  it('brings the text of a rule that now applies after the notice, and not one whose text an earlier turn gave', async () => {
    const before = { 'AGENTS.md': 'Root.\n', 'src/AGENTS.md': 'Src.\n', 'docs/shared.md': 'Shared.\n' };
    const after = { ...before, 'src/AGENTS.override.md': 'Override.\n', 'src/CLAUDE.md': 'Claude.\n', '.github/copilot-instructions.md': 'Shared.\n' };
    const { source, snapshot } = await moved(before, after);
    // docs/shared.md was given on turn 1 (posted paths bring such a file); Copilot's file now has the same text.
    const history = [await given('AGENTS.md', 'Root.\n'), await given('src/AGENTS.md', 'Src.\n'), await given('docs/shared.md', 'Shared.\n', 1)];
    const gathered = await gatherContext({ registry: withRules, agent, available: ['repo:read'], source, snapshot, task: taskView({ ref: 'main', cwd: 'src' }), turn: 2, history });
    expect(gathered.entries.map((entry) => [entry.title, entry.source.revision ?? null, entry.freshness])).toEqual([
      ['Freshness: main moved', HEAD, 'volatile'],
      ['src/AGENTS.override.md', HEAD, 'pinned'],
    ]);
    expect(gathered.entries[0]?.body).toContain('- .github/copilot-instructions.md added: always (repository-wide Copilot instructions)\n');
    expect(gathered.entries[0]?.body).toContain('- src/CLAUDE.md added: shadowed by src/AGENTS.override.md in src, which is given instead\n');
    expect(gathered.entries[1]).toMatchObject({ body: 'Override.\n', source: { path: 'src/AGENTS.override.md', blob: await gitBlobOid('Override.\n') } });
    expect(gathered.outcomes.find((o) => o.name === 'freshness')?.reason).toBe('.github/copilot-instructions.md has the same content as docs/shared.md, given on turn 1');
  });

  it('says a rule it could not fit, so the model reads it itself, and shares the budget evenly', async () => {
    const long = `${'Never skip the migrations. '.repeat(1_000)}\n`;
    const { source, snapshot } = await moved({ 'AGENTS.md': 'Root.\n' }, { 'AGENTS.md': 'Root.\n', 'AGENTS.override.md': long, '.github/copilot-instructions.md': long.replace('Never', 'Always') });
    const gathered = await gatherContext({ registry: withRules, agent, available: ['repo:read'], source, snapshot, task: taskView({ ref: 'main' }), turn: 1, history: [await given('AGENTS.md', 'Root.\n')] });
    const brought = gathered.entries.filter((entry) => entry.source.path !== undefined);
    expect(brought.map((entry) => [entry.title, entry.truncated])).toEqual([
      ['.github/copilot-instructions.md', true],
      ['AGENTS.override.md', true],
    ]);
    // Even shares of what the notice leaves of the 6,000 tokens.
    expect(Math.abs((brought[0]?.tokens ?? 0) - (brought[1]?.tokens ?? 0))).toBeLessThan(20);
    expect(gathered.entries.reduce((sum, entry) => sum + entry.tokens, 0)).toBeLessThanOrEqual(6_000);

    // A budget the notice takes whole: each rule is named, for the model to read itself.
    const tight = await gatherContext({ registry: withRules, agent, available: ['repo:read'], source, snapshot, task: taskView({ ref: 'main' }), turn: 1, history: [await given('AGENTS.md', 'Root.\n')], settings: { task: { freshness: { budget: 100 } } } });
    expect(tight.entries.map((entry) => entry.title)).toEqual(['Freshness: main moved']);
    expect(tight.outcomes.find((o) => o.name === 'freshness')?.reason).toContain(`left out AGENTS.override.md: its share of the budget cannot hold even the truncation marker; read it at ${HEAD.slice(0, 7)}`);
  });
});
