import { describe, expect, it } from 'vitest';
import type { Knowledge, KnowledgeReader } from '../../src/context/knowledge.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { grantCapabilities } from '../../src/context/capabilities.ts';
import { runProviders } from '../../src/context/runner.ts';
import { countTokens } from '../../src/context/tokens.ts';
import { namedPaths } from '../../src/providers/memory/named-paths.ts';
import { createMemoryProvider } from '../../src/providers/memory/provider.ts';
import { checkProvenance } from '../../src/providers/memory/provenance.ts';
import type { RepositorySource, Snapshot } from '../../src/sources/snapshot.ts';
import { memorySnapshot, type MemoryFile } from '../support/memory-tree.ts';
import { taskView } from '../support/task.ts';

const TASK = 'a'.repeat(40);
const OLD = '1'.repeat(40);
const NOW = Date.parse('2026-11-30T12:00:00Z');

let serial = 0;
function knowledge(overrides: Partial<Knowledge> = {}): Knowledge {
  serial++;
  return {
    id: `k_${'0'.repeat(64)}_${serial.toString(16).padStart(16, '0')}`,
    repository: 'memory:test',
    kind: 'fact',
    statement: `Statement ${serial}.`,
    source: { uri: 'https://wiki.test/page' },
    author: 'api:acme',
    createdAt: new Date(NOW - serial * 1000).toISOString(),
    reviewBy: '2027-01-01',
    status: 'active',
    version: 1,
    ...overrides,
  };
}

/** A source whose commits are memory snapshots; counts the snapshots opened per commit. */
async function sourceOf(commits: Record<string, Record<string, MemoryFile>>): Promise<RepositorySource & { opened: string[] }> {
  const snapshots = new Map<string, Snapshot>();
  for (const [commit, files] of Object.entries(commits)) snapshots.set(commit, await memorySnapshot(files, commit));
  const opened: string[] = [];
  return {
    repository: 'memory:test',
    opened,
    resolve: async () => ({ status: 'ok', commit: TASK }),
    snapshot(commit) {
      opened.push(commit);
      return (
        snapshots.get(commit) ?? {
          repository: 'memory:test',
          commit,
          uri: (path) => path,
          list: async (path) => ({ status: 'failed', path, reason: 'no such commit' }),
          read: async (path) => ({ status: 'failed', path, reason: `fetching ${commit} failed: 404 “not found” ✗` }),
          commitInfo: async () => ({ status: 'failed', reason: 'no such commit' }),
        }
      );
    },
  };
}

describe('named paths', () => {
  it('reads paths a request names, and not URLs, skills, mentions or prose', () => {
    expect(namedPaths('Fix `src/auth/session.ts` (see docs/deploy.md), then update ./README.md and $deploy for @alice; see https://x.test/a/b.md. e.g. v1.2 works')).toEqual([
      'src/auth/session.ts',
      'docs/deploy.md',
      'README.md',
      'e.g',
    ]);
    expect(namedPaths('../../etc/passwd and /abs/path.ts')).toEqual([]);
    expect(namedPaths(Array.from({ length: 100 }, (_, i) => `dir/f${i}.ts`).join(' '))).toHaveLength(32);
  });
});

describe('provenance checks', () => {
  const signal = new AbortController().signal;
  // Past the test's own timeout: the checks that must finish never race it on a loaded machine;
  // the tests about the deadline set a short one against reads that never settle.
  const options = { signal, timeoutMs: 60_000, maxRevisions: 8 };

  it('compares blobs at the cited revision and the task commit, reading each commit once', async () => {
    const source = await sourceOf({
      [OLD]: { 'a.md': 'same\n', 'b.md': 'before\n', 'gone.md': 'x\n', 'bin.dat': new Uint8Array([0, 1, 2]) },
      [TASK]: { 'a.md': 'same\n', 'b.md': 'after\n', 'dir/x.md': 'x', 'bin.dat': new Uint8Array([0, 9]) },
    });
    const snapshot = source.snapshot(TASK);
    source.opened.length = 0;
    const cite = (path: string, revision = OLD) => knowledge({ source: { uri: 'u:', path, revision } });
    const results = await checkProvenance([cite('a.md'), cite('b.md'), cite('gone.md'), cite('never.md'), cite('bin.dat'), cite('dir', TASK), cite('a.md', 'f'.repeat(40)), knowledge()], { ...options, snapshot, source });
    expect(results.map((r) => r.warning ?? r.line)).toEqual([
      'provenance: checked: unchanged from 111111111111 to aaaaaaaaaaaa',
      'cited source changed since 111111111111: verify before acting',
      'cited source no longer exists at aaaaaaaaaaaa',
      'provenance not checkable: the cited path does not exist at 111111111111',
      'provenance not checkable: the cited file is binary at 111111111111',
      'provenance not checkable: the cited path is a dir at aaaaaaaaaaaa',
      // Non-ASCII in an upstream reason is replaced, so every line stays within its reserved size.
      'provenance not checkable: reading the cited path failed (fetching ffffffffffffffffffffffffffffffffffffffff failed: 404 ?not found? ?) at ffffffffffff',
      'provenance not checkable: the source names no path@revision',
    ]);
    expect(results[1]?.blob).toMatch(/^[0-9a-f]{40}$/);
    expect(source.opened.sort()).toEqual([OLD, 'f'.repeat(40)]);
  });

  it('reads at most maxRevisions cited revisions besides the task commit', async () => {
    const revisions = ['1', '2', '3'].map((digit) => digit.repeat(40));
    const source = await sourceOf(Object.fromEntries([TASK, ...revisions].map((commit) => [commit, { 'a.md': 'same\n' }])));
    const objects = [...revisions, revisions[0] ?? ''].map((revision) => knowledge({ source: { uri: 'u:', path: 'a.md', revision } }));
    const results = await checkProvenance(objects, { ...options, maxRevisions: 2, snapshot: source.snapshot(TASK), source });
    expect(results.map((r) => r.warning ?? 'ok')).toEqual(['ok', 'ok', 'provenance not checkable: more than 2 cited revisions in one task', 'ok']);
  });

  it('reports checks that outlast their deadline as not checked, without waiting for them', async () => {
    const snapshot = await memorySnapshot({ 'a.md': 'x' }, TASK);
    const hanging: Snapshot = { ...snapshot, commit: OLD, read: () => new Promise(() => {}) };
    const source: RepositorySource = { repository: 'memory:test', resolve: async () => ({ status: 'ok', commit: TASK }), snapshot: (commit) => (commit === OLD ? hanging : snapshot) };
    // The cited revision's read never settles, so answering at all is not waiting for it.
    const results = await checkProvenance([knowledge({ source: { uri: 'u:', path: 'a.md', revision: OLD } })], { ...options, timeoutMs: 50, snapshot, source });
    expect(results[0]?.warning).toBe('provenance not checked: the check took longer than 50 ms');
  });

  it('opens a cited revision under the checks’ signal, so what its snapshot loads is cut off when they give up', async () => {
    const snapshot = await memorySnapshot({ 'a.md': 'x' }, TASK);
    const lifetimes: Array<AbortSignal | undefined> = [];
    const source: RepositorySource = {
      repository: 'memory:test',
      resolve: async () => ({ status: 'ok', commit: TASK }),
      snapshot: (commit, opened) => {
        lifetimes.push(opened?.signal);
        return { ...snapshot, commit, read: () => new Promise(() => {}) };
      },
    };
    const results = await checkProvenance([knowledge({ source: { uri: 'u:', path: 'a.md', revision: OLD } })], { ...options, timeoutMs: 50, snapshot, source });
    expect(results[0]?.warning).toBe('provenance not checked: the check took longer than 50 ms');
    expect(lifetimes).toHaveLength(1);
    expect(lifetimes[0]?.aborted).toBe(true);
  });

  it('says “provenance not checked” for every object without a snapshot', async () => {
    const results = await checkProvenance([knowledge({ source: { uri: 'u:', path: 'a.md', revision: OLD } })], options);
    expect(results).toEqual([{ line: 'provenance: not checked: no repository access in this task', warning: 'provenance not checked: no repository access in this task' }]);
  });
});

describe('memory provider', () => {
  const grant = grantCapabilities({ agent: { name: 'communicator', capabilities: ['knowledge:read'] }, trusted: true, available: ['knowledge:read'] });
  const run = (objects: Knowledge[], request = 'Do the thing.') => {
    const reads: number[] = [];
    const reader: KnowledgeReader = { active: async () => (reads.push(1), objects) };
    return runProviders({
      registry: createRegistry([createMemoryProvider()]),
      selection: 'all',
      task: taskView({ request, agent: 'communicator' }),
      turn: 0,
      capabilities: grant,
      knowledge: reader,
      totalBudget: 100_000,
      now: () => NOW,
    }).then((result) => ({ ...result, reads }));
  };

  it('names at most twenty ids per reason and counts the rest, reading the store once', async () => {
    const expired = Array.from({ length: 25 }, () => knowledge({ reviewBy: '2026-11-29' }));
    const dueToday = knowledge({ reviewBy: '2026-11-30' });
    const result = await run([...expired, dueToday]);
    const ids = expired.map((k) => k.id).sort();
    expect(result.reads).toHaveLength(1);
    expect(result.entries.map((e) => e.title)).toEqual([`fact ${dueToday.id}`]);
    expect(result.outcomes[0]?.reason).toBe(`25 past review date: ${ids.slice(0, 20).join(', ')} and 5 more`);
  });

  it('keeps entries within the budget it reserved before checking provenance', async () => {
    const objects = Array.from({ length: 12 }, (_, i) => knowledge({ statement: `${i} ${'y'.repeat(1_200)}`, paths: ['a/b'] }));
    const result = await run(objects);
    const kept = result.entries.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(objects.length);
    expect(result.entries.every((e) => !e.truncated)).toBe(true);
    expect(result.entries.reduce((sum, e) => sum + countTokens(e.body), 0)).toBeLessThanOrEqual(4_000);
    expect(result.outcomes[0]?.reason).toBe(`${objects.length - kept} left out for memory's budget of 4000 tokens: ${objects.slice(kept).map((k) => k.id).join(', ')}`);
  });

  it('skips an object too large for what is left and still keeps smaller, less relevant ones', async () => {
    const small = knowledge({ statement: 'small', paths: ['elsewhere'] });
    // 3,000 tokens (three UTF-8 bytes a character), then 1,000: together more than the 4,000 budget.
    const huge = knowledge({ statement: '漢'.repeat(4_000), paths: ['src'] });
    const medium = knowledge({ statement: 'm'.repeat(4_000), paths: ['src'] });
    const result = await run([small, huge, medium], 'Edit src/main.ts');
    expect(result.entries.map((e) => e.title)).toEqual([`fact ${huge.id}`, `fact ${small.id}`]);
    expect(result.outcomes[0]?.reason).toBe(`1 left out for memory's budget of 4000 tokens: ${medium.id}`);
  });
});
