import { describe, expect, it } from 'vitest';
import { grantCapabilities } from '../../src/context/capabilities.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { runProviders, type RunInput } from '../../src/context/runner.ts';
import type { KnowledgeReader } from '../../src/context/knowledge.ts';
import type { Capability, Provider } from '../../src/context/provider.ts';
import type { RepositorySource, Snapshot } from '../../src/sources/snapshot.ts';
import { entry, fakeProvider } from '../support/providers.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { taskView } from '../support/task.ts';

const fullGrant = grantCapabilities({
  agent: { name: 'entry', capabilities: ['repo:read', 'github:api', 'knowledge:read'] },
  trusted: true,
  available: ['repo:read', 'github:api', 'knowledge:read'],
});

function sourceOf(snapshot: Snapshot): RepositorySource {
  return { repository: snapshot.repository, resolve: async () => ({ status: 'ok', commit: snapshot.commit }), snapshot: () => snapshot };
}

function run(providers: Provider[], overrides: Partial<RunInput> = {}) {
  return runProviders({
    registry: createRegistry(providers),
    selection: 'all',
    task: taskView(),
    turn: 0,
    capabilities: fullGrant,
    totalBudget: 10_000,
    ...overrides,
  });
}

describe('runner outcomes', () => {
  it('gives every provider exactly one outcome, one of each kind', async () => {
    const result = await run(
      [
        fakeProvider({ name: 'included' }),
        fakeProvider({ name: 'empty', entries: [] }),
        fakeProvider({ name: 'first-only', turns: 'first' }),
        fakeProvider({ name: 'needs-knowledge', requires: ['knowledge:read'] }),
        fakeProvider({ name: 'slow', hang: true, timeoutMs: 30 }),
        fakeProvider({ name: 'broken', throws: 'disk on fire' }),
        fakeProvider({ name: 'huge', budget: 5, entries: [entry('huge', 'x'.repeat(400))] }),
        fakeProvider({ name: 'malformed', entries: [{ title: 'no source', body: 'x', freshness: 'pinned' }] }),
      ],
      {
        turn: 1,
        capabilities: grantCapabilities({ agent: { name: 'explorer', capabilities: ['repo:read'] }, trusted: true, available: ['repo:read'] }),
      },
    );
    const byName = Object.fromEntries(result.outcomes.map((o) => [o.name, o]));
    expect(result.outcomes).toHaveLength(8);
    expect(byName['included']?.outcome).toBe('included');
    expect(byName['empty']?.outcome).toBe('empty');
    expect(byName['first-only']).toMatchObject({ outcome: 'turn-gated', reason: 'runs on the first turn only (this is turn 1)' });
    expect(byName['needs-knowledge']).toMatchObject({ outcome: 'capability-gated', reason: 'agent "explorer" does not grant knowledge:read' });
    expect(byName['slow']).toMatchObject({ outcome: 'timed-out', reason: 'no result within 30 ms' });
    expect(byName['broken']).toMatchObject({ outcome: 'failed', reason: 'disk on fire' });
    expect(byName['huge']?.outcome).toBe('budget-excluded');
    expect(byName['malformed']).toMatchObject({ outcome: 'invalid' });
    expect(byName['malformed']?.reason).toContain('entries[0].source');
    expect(result.entries.map((e) => e.provider)).toEqual(['included']);
  });

  it('reports an invalid config naming the field, without running the provider', async () => {
    let ran = false;
    const result = await run([fakeProvider({ name: 'configured', onRun: () => (ran = true) })], {
      setups: { configured: { config: { greeting: 42 } } },
    });
    expect(result.outcomes[0]).toMatchObject({ outcome: 'invalid' });
    expect(result.outcomes[0]?.reason).toMatch(/^config\.greeting: /);
    expect(ran).toBe(false);
  });

  it('names the entry field a provider got wrong when none of its entries is valid', async () => {
    const bad = { ...entry('a', 'body'), source: { uri: 'x', path: 'a.md', revision: 'main' } };
    const result = await run([fakeProvider({ name: 'p', entries: [bad] })]);
    expect(result.outcomes[0]).toMatchObject({ outcome: 'invalid', reason: 'entries[0].source.revision: must be a 40-hex commit' });
    expect(result.entries).toEqual([]);
  });

  it('leaves out each invalid entry with its reason and keeps the valid ones, whatever the entry got wrong', async () => {
    const valid = entry('AGENTS.md', 'Use tabs.');
    const invalid: Array<[unknown, string]> = [
      [{ ...entry('x', 'body'), title: 't'.repeat(201) }, 'entries[1].title: '],
      [{ ...entry('x', 'body'), title: '' }, 'entries[2].title: '],
      [{ ...entry('x', 'body'), source: { uri: 'x', path: 'x.md', revision: 'main' } }, 'entries[3].source.revision: must be a 40-hex commit'],
      [{ ...entry('x', 'body'), source: { uri: 'x', path: 'x.md' } }, 'entries[4].source.revision: a pinned entry needs source.revision'],
      [{ ...entry('x', 'body'), reviewBy: 'next spring' }, 'entries[5].reviewBy: '],
      [{ ...entry('x', 'body'), freshness: 'eternal' }, 'entries[6].freshness: '],
      [{ ...entry('x', 'body'), body: 42 }, 'entries[7].body: '],
      [{ ...entry('x', 'body'), source: { uri: '' } }, 'entries[8].source.uri: Too small: expected string to have >=1 characters, entries[8].source.revision: a pinned entry needs source.revision'],
      ['not an entry', 'entries[9]: '],
      [null, 'entries[10]: '],
    ];
    const result = await run([fakeProvider({ name: 'rules', entries: [valid, ...invalid.map(([candidate]) => candidate), entry('last', 'Still here.')] })]);
    expect(result.entries.map((e) => e.title)).toEqual(['AGENTS.md', 'last']);
    const outcome = result.outcomes[0];
    expect(outcome?.outcome).toBe('included');
    const reasons = outcome?.reason?.split('; ') ?? [];
    expect(reasons).toHaveLength(invalid.length);
    invalid.forEach(([, expected], i) => expect(reasons[i]).toContain(`left out invalid ${expected}`));
  });

  it('keeps rendering the others when one provider throws', async () => {
    const result = await run([fakeProvider({ name: 'a' }), fakeProvider({ name: 'b', throws: 'boom' }), fakeProvider({ name: 'c' })]);
    expect(result.entries.map((e) => e.provider)).toEqual(['a', 'c']);
    expect(result.outcomes.map((o) => o.outcome)).toEqual(['included', 'failed', 'included']);
  });

  it('turns a synchronous throw into failed too', async () => {
    const provider: Provider = { ...fakeProvider({ name: 'sync' }), run: () => { throw new TypeError('not a promise'); } };
    const result = await run([provider]);
    expect(result.outcomes[0]).toMatchObject({ outcome: 'failed', reason: 'not a promise' });
  });
});

describe('runner and snapshots', () => {
  it('gives repository readers only a snapshot pinned at the task commit', async () => {
    let seen: string | undefined = 'not run';
    const reader = fakeProvider({ name: 'reader', requires: ['repo:read'], onRun: () => (seen = 'ran') });
    const elsewhere = await memorySnapshot({}, 'b'.repeat(40));
    const result = await run([reader], { snapshot: elsewhere });
    expect(seen).toBe('not run');
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'capability-gated',
      reason: `repo:read: the snapshot is at ${'b'.repeat(40)} but the task is pinned at ${'a'.repeat(40)}`,
    });
    const none = await run([reader]);
    expect(none.outcomes[0]).toMatchObject({ outcome: 'capability-gated', reason: 'repo:read: no repository snapshot for this task' });
  });

  it('hands no snapshot and no source to a provider that did not ask for repository access', async () => {
    let got: unknown[] = [];
    const provider: Provider = { ...fakeProvider({ name: 'plain' }), run: async (request) => ((got = [request.snapshot, request.source]), []) };
    const snapshot = await memorySnapshot({});
    await run([provider], { snapshot, source: sourceOf(snapshot) });
    expect(got).toEqual([undefined, undefined]);
  });

  it('hands repository readers the source their snapshot came from, to look beyond the pinned commit', async () => {
    let got: unknown;
    const reader: Provider = { ...fakeProvider({ name: 'reader', requires: ['repo:read'] }), run: async (request) => ((got = request.source), []) };
    const snapshot = await memorySnapshot({});
    const source = sourceOf(snapshot);
    await run([reader], { snapshot, source });
    expect(got).toBe(source);
  });
});

describe('runner and optional capabilities', () => {
  const probe = (options: { requires?: Capability[]; uses?: Capability[] }) => {
    const got: { snapshot?: unknown; source?: unknown; knowledge?: unknown; ran: boolean } = { ran: false };
    const provider: Provider = {
      ...fakeProvider({ name: 'probe', ...(options.requires ? { requires: options.requires } : {}) }),
      ...(options.uses ? { uses: options.uses } : {}),
      run: async (request) => {
        Object.assign(got, { snapshot: request.snapshot, source: request.source, knowledge: request.knowledge, ran: true });
        return [];
      },
    };
    return { provider, got };
  };
  const reader: KnowledgeReader = { active: async () => [] };

  it('hands an optional repo:read the snapshot and source when granted, and runs without them otherwise', async () => {
    const snapshot = await memorySnapshot({});
    const source = sourceOf(snapshot);
    const granted = probe({ requires: ['knowledge:read'], uses: ['repo:read'] });
    await run([granted.provider], { snapshot, source, knowledge: reader });
    expect(granted.got).toEqual({ snapshot, source, knowledge: reader, ran: true });

    const withheld = probe({ requires: ['knowledge:read'], uses: ['repo:read'] });
    const communicator = grantCapabilities({ agent: { name: 'communicator', capabilities: ['knowledge:read'] }, trusted: true, available: ['repo:read', 'knowledge:read'] });
    const result = await run([withheld.provider], { snapshot, source, knowledge: reader, capabilities: communicator });
    expect(result.outcomes[0]?.outcome).toBe('empty');
    expect(withheld.got).toEqual({ snapshot: undefined, source: undefined, knowledge: reader, ran: true });

    // A snapshot pinned elsewhere is never handed over, optional or not.
    const elsewhere = probe({ uses: ['repo:read'] });
    await run([elsewhere.provider], { snapshot: await memorySnapshot({}, 'b'.repeat(40)) });
    expect(elsewhere.got).toMatchObject({ snapshot: undefined, ran: true });
  });

  it('hands the knowledge reader only to providers that asked for knowledge:read and were granted it', async () => {
    const plain = probe({});
    await run([plain.provider], { knowledge: reader });
    expect(plain.got.knowledge).toBeUndefined();

    const needs = probe({ requires: ['knowledge:read'] });
    const explorer = grantCapabilities({ agent: { name: 'explorer', capabilities: ['repo:read'] }, trusted: true, available: ['repo:read', 'knowledge:read'] });
    const gated = await run([needs.provider], { knowledge: reader, capabilities: explorer });
    expect(gated.outcomes[0]).toMatchObject({ outcome: 'capability-gated', reason: 'agent "explorer" does not grant knowledge:read' });
    expect(needs.got.ran).toBe(false);

    // Granted, but this host keeps no knowledge: gated with the reason, never run to fail.
    const storeless = probe({ requires: ['knowledge:read'] });
    const orphaned = await run([storeless.provider], {});
    expect(orphaned.outcomes[0]).toMatchObject({ outcome: 'capability-gated', reason: 'knowledge:read: no knowledge store for this task' });
    expect(storeless.got.ran).toBe(false);
  });
});

describe('runner timeouts', () => {
  it('returns near the timeout when a provider ignores its abort signal', async () => {
    let aborted = false;
    const started = Date.now();
    const result = await run([
      fakeProvider({ name: 'stubborn', hang: true, timeoutMs: 100, onRun: (signal) => signal.addEventListener('abort', () => (aborted = true)) }),
      fakeProvider({ name: 'quick' }),
    ]);
    const elapsed = Date.now() - started;
    expect(result.outcomes.find((o) => o.name === 'stubborn')?.outcome).toBe('timed-out');
    expect(result.entries.map((e) => e.provider)).toEqual(['quick']);
    expect(aborted).toBe(true);
    // Bounded far below "never": the provider would otherwise hold assembly forever.
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('marks the remaining providers failed when the whole assembly is aborted', async () => {
    const controller = new AbortController();
    const pending = run([fakeProvider({ name: 'slow', hang: true, timeoutMs: 5_000 })], { signal: controller.signal });
    controller.abort(new Error('task cancelled'));
    const result = await pending;
    expect(result.outcomes[0]).toMatchObject({ outcome: 'failed', reason: 'assembly aborted: task cancelled' });
  });
});

describe('runner order and budgets', () => {
  it('orders by category, then position, then name, never by completion', async () => {
    const result = await run([
      fakeProvider({ name: 'zeta', category: 'memory', delayMs: 1 }),
      fakeProvider({ name: 'beta', category: 'rules', delayMs: 30 }),
      fakeProvider({ name: 'alpha', category: 'rules', delayMs: 20 }),
      fakeProvider({ name: 'early', category: 'rules', position: 1, delayMs: 10 }),
      fakeProvider({ name: 'skills', category: 'skills' }),
      fakeProvider({ name: 'facts', category: 'system', delayMs: 40 }),
    ]);
    expect(result.entries.map((e) => e.provider)).toEqual(['facts', 'early', 'alpha', 'beta', 'skills', 'zeta']);
    expect(result.outcomes.map((o) => o.name)).toEqual(['facts', 'early', 'alpha', 'beta', 'skills', 'zeta']);
  });

  it('cuts the first entry over a provider budget and drops the rest, saying so', async () => {
    const result = await run([
      fakeProvider({ name: 'rules', budget: 60, entries: [entry('a', 'a'.repeat(100)), entry('b', 'b'.repeat(400)), entry('c', 'c')] }),
    ]);
    const [first, second] = result.entries;
    expect(result.entries).toHaveLength(2);
    expect(first).toMatchObject({ title: 'a', truncated: false, tokens: 25 });
    expect(second?.truncated).toBe(true);
    expect(second?.body).toMatch(/\[… truncated by groundwork: b\.md shown \d+\/400 chars\]$/);
    expect(result.outcomes[0]).toMatchObject({ outcome: 'included', reason: "dropped for rules's budget of 60 tokens: c", tokens: 60 });
  });

  it('drops the end of the render order first when the total budget is exceeded', async () => {
    const result = await run(
      [
        fakeProvider({ name: 'rules', category: 'rules', entries: [entry('r', 'r'.repeat(200))] }),
        fakeProvider({ name: 'skills', category: 'skills', entries: [entry('s1', 's'.repeat(200)), entry('s2', 's'.repeat(200))] }),
        fakeProvider({ name: 'memory', category: 'memory', entries: [entry('m', 'm'.repeat(200))] }),
      ],
      { totalBudget: 100 },
    );
    expect(result.entries.map((e) => e.title)).toEqual(['r', 's1']);
    const outcomes = Object.fromEntries(result.outcomes.map((o) => [o.name, o]));
    expect(outcomes['memory']).toMatchObject({ outcome: 'budget-excluded', reason: 'dropped for the total budget of 100 tokens: m', tokens: 0 });
    expect(outcomes['skills']).toMatchObject({ outcome: 'included', reason: 'dropped for the total budget of 100 tokens: s2', tokens: 50 });
    expect(outcomes['rules']).toMatchObject({ outcome: 'included', tokens: 50 });
  });

  it('runs only the providers of the selection', async () => {
    const result = await run([fakeProvider({ name: 'a' }), fakeProvider({ name: 'b' })], { selection: ['b'] });
    expect(result.outcomes.map((o) => o.name)).toEqual(['b']);
    const except = await run([fakeProvider({ name: 'a' }), fakeProvider({ name: 'b' }), fakeProvider({ name: 'c' })], { selection: { except: ['b'] } });
    expect(except.outcomes.map((o) => o.name)).toEqual(['a', 'c']);
  });
});
