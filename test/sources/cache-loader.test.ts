import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/sources/cache-key.ts';
import type { KeyValueStore } from '../../src/sources/cached-json.ts';
import { createCachedLoader, SOURCE_CACHE_SCHEMA } from '../../src/sources/cached-loader.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { createMemoryTree } from '../support/memory-tree.ts';

const files = {
  'AGENTS.md': { symlink: 'docs/AGENTS.md' },
  'docs/AGENTS.md': '# Rules\n',
  'skills/review/SKILL.md': 'Review carefully.\n',
};

let counter = 0;
/** Each test gets its own repository identity, so tests never share cache entries. */
function uniqueScope(label = 'repo'): { repository: string; commit: string } {
  counter++;
  return { repository: `https://git.example.test/${label}-${counter}-${Date.now()}.git`, commit: counter.toString(16).padStart(40, 'a') };
}

function snapshotWith(loader: TreeLoader, scope: { repository: string; commit: string }, store: KeyValueStore = env.CACHE) {
  const cached = createCachedLoader(loader, store, scope);
  return createTreeSnapshot({ ...scope, uri: (path) => `${scope.repository}/${path}@${scope.commit}`, loader: cached });
}

async function readAll(snapshot: ReturnType<typeof snapshotWith>): Promise<unknown[]> {
  return [
    await snapshot.list('skills'),
    await snapshot.read('AGENTS.md', { maxBytes: 100 }),
    await snapshot.read('skills/review/SKILL.md', { maxBytes: 100 }),
  ];
}

describe('the revision-keyed cache', () => {
  it('serves a second snapshot of the same commit with zero loader calls', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    const cold = await readAll(snapshotWith(tree.loader, scope));
    expect(tree.calls.tree).toBe(1);
    // The link's own blob (its target path) is read too: three blobs in all.
    expect(tree.calls.blobs).toHaveLength(3);

    const before = { tree: tree.calls.tree, blobs: tree.calls.blobs.length };
    const warm = await readAll(snapshotWith(tree.loader, scope));
    expect(warm).toEqual(cold);
    expect({ tree: tree.calls.tree, blobs: tree.calls.blobs.length }).toEqual(before);
  });

  it('keeps a commit\'s facts by commit, so a warm snapshot asks the loader for none', async () => {
    const scope = uniqueScope();
    const tree = await createMemoryTree(files, scope.commit);
    const cold = await snapshotWith(tree.loader, scope).commitInfo();
    expect(cold).toMatchObject({ status: 'ok', info: { commit: scope.commit, committedAt: '2026-01-01T00:00:00Z' } });
    expect(tree.calls.commits).toBe(1);
    expect(await snapshotWith(tree.loader, scope).commitInfo()).toEqual(cold);
    expect(tree.calls.commits).toBe(1);
    await snapshotWith(tree.loader, { ...scope, commit: 'f'.repeat(40) }).commitInfo();
    expect(tree.calls.commits).toBe(2);
  });

  it('does not share trees across commits of the same repository', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    await snapshotWith(tree.loader, scope).list('');
    await snapshotWith(tree.loader, { ...scope, commit: 'f'.repeat(40) }).list('');
    expect(tree.calls.tree).toBe(2);
  });

  it('ignores and rewrites a corrupt or old-schema tree', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    const key = await cacheKey(['gw', 'tree', `v${SOURCE_CACHE_SCHEMA}`, scope.repository, scope.commit]);
    const poisoned = [
      '{"schema":1,"entries":[{"path":"AGENTS.md"', // truncated JSON
      JSON.stringify({ schema: 0, entries: [] }), // an older schema
      // The current schema, each with one entry no tree has: only the entry's check refuses them.
      JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, entries: [{ path: '../escape', kind: 'file', oid: 'x' }] }),
      JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, entries: [{ path: 'docs/AGENTS.md', kind: 'file', oid: 'x', size: -8 }] }),
      JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, entries: [{ path: 'docs/AGENTS.md', kind: 'tree', oid: 'x' }] }),
      JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, entries: [{ path: 'docs/AGENTS.md', kind: 'file', oid: '' }] }),
    ];
    for (const [index, value] of poisoned.entries()) {
      await env.CACHE.put(key, value);
      expect(await snapshotWith(tree.loader, scope).read('docs/AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Rules\n' });
      expect(tree.calls.tree).toBe(index + 1);
      const rewritten: unknown = JSON.parse((await env.CACHE.get(key, 'text')) ?? 'null');
      expect(rewritten).toMatchObject({ schema: SOURCE_CACHE_SCHEMA, entries: expect.arrayContaining([{ path: 'docs/AGENTS.md', kind: 'file', oid: tree.oidOf('docs/AGENTS.md'), size: 8 }]) });
    }
  });

  it('rejects a cached blob whose content does not hash to its oid, and rewrites it', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    const oid = tree.oidOf('docs/AGENTS.md');
    const key = await cacheKey(['gw', 'blob', `v${SOURCE_CACHE_SCHEMA}`, scope.repository, oid]);
    await env.CACHE.put(key, JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, size: 8, base64: btoa('# Forged') }));
    const result = await snapshotWith(tree.loader, scope).read('docs/AGENTS.md', { maxBytes: 100 });
    expect(result).toMatchObject({ status: 'ok', text: '# Rules\n' });
    expect(tree.calls.blobs).toEqual([oid]);
    expect(await env.CACHE.get(key, 'text')).toBe(JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, size: 8, base64: btoa('# Rules\n') }));
  });

  it('keeps keys under 512 bytes for very long repository identities, and still hits', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope(`very-long-${'x'.repeat(2000)}`);
    await readAll(snapshotWith(tree.loader, scope));
    await readAll(snapshotWith(tree.loader, scope));
    expect(tree.calls.tree).toBe(1);
    const { keys } = await env.CACHE.list({ prefix: 'gw:#sha256:' });
    expect(keys.length).toBeGreaterThanOrEqual(4);
    for (const { name } of keys) expect(new TextEncoder().encode(name).byteLength).toBeLessThanOrEqual(512);
  });

  it('serves but does not cache a blob above the size cap', async () => {
    const tree = await createMemoryTree({ 'big.md': 'b'.repeat(2048) });
    const scope = uniqueScope();
    const read = () => createTreeSnapshot({ ...scope, uri: String, loader: createCachedLoader(tree.loader, env.CACHE, scope, { maxBlobBytes: 1024 }) }).read('big.md', { maxBytes: 10 });
    expect(await read()).toMatchObject({ status: 'ok', size: 2048, truncated: true });
    expect(await read()).toMatchObject({ status: 'ok', size: 2048 });
    expect(tree.calls.blobs).toHaveLength(2);
    expect(await env.CACHE.get(await cacheKey(['gw', 'blob', `v${SOURCE_CACHE_SCHEMA}`, scope.repository, tree.oidOf('big.md')]), 'text')).toBeNull();
  });

  it('serves a blob the loader holds without looking it up in the store, and still stores it for the next reader', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    const heldOid = tree.oidOf('docs/AGENTS.md');
    const held = new TextEncoder().encode('# Rules\n');
    const gets: string[] = [];
    const counting: KeyValueStore = { get: (key, type) => (gets.push(key), env.CACHE.get(key, type)), put: (key, value, options) => env.CACHE.put(key, value, options) };
    const holding: TreeLoader = { ...tree.loader, heldBlob: (oid) => (oid === heldOid ? held : undefined) };
    const heldKey = await cacheKey(['gw', 'blob', `v${SOURCE_CACHE_SCHEMA}`, scope.repository, heldOid]);
    const otherKey = await cacheKey(['gw', 'blob', `v${SOURCE_CACHE_SCHEMA}`, scope.repository, tree.oidOf('skills/review/SKILL.md')]);

    const snapshot = snapshotWith(holding, scope, counting);
    expect(await snapshot.read('docs/AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Rules\n' });
    expect(await snapshot.read('skills/review/SKILL.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'Review carefully.\n' });
    // The held blob asked neither the store nor the loader's read; the other one asked both.
    expect(gets).not.toContain(heldKey);
    expect(gets).toContain(otherKey);
    expect(tree.calls.blobs).toEqual([tree.oidOf('skills/review/SKILL.md')]);
    // Stored all the same: a reader whose loader holds nothing finds it in the store.
    expect(await env.CACHE.get(heldKey, 'text')).toBe(JSON.stringify({ schema: SOURCE_CACHE_SCHEMA, size: 8, base64: btoa('# Rules\n') }));
  });

  it('holds the blobs a cached read-ahead carried once they check out against their ids, so a held view reads them', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    const oids = { rules: tree.oidOf('docs/AGENTS.md'), skill: tree.oidOf('skills/review/SKILL.md') };
    const bytes = new Map([[oids.rules, new TextEncoder().encode('# Rules\n')], [oids.skill, new TextEncoder().encode('Review carefully.\n')]]);
    const whole = await tree.loader.loadTree();
    const planned = (held: boolean): TreeLoader => ({
      ...tree.loader,
      loadPartial: async () => ({ dirs: [{ path: 'docs', entries: whole.filter((entry) => entry.path === 'docs/AGENTS.md') }, { path: 'skills/review', entries: whole.filter((entry) => entry.path === 'skills/review/SKILL.md') }], entries: [], absent: [] }),
      ...(held ? { heldBlob: (oid: string) => bytes.get(oid) } : {}),
    });
    const plan = { dirs: ['docs', 'skills/review'], files: [], walks: [] };
    const snapshotOf = (loader: TreeLoader) => createTreeSnapshot({ ...scope, uri: (path) => path, loader: createCachedLoader(loader, env.CACHE, scope), plan });

    // The first reader read ahead with the blobs in hand: its cached read-ahead carries them.
    expect(await snapshotOf(planned(true)).list('docs')).toMatchObject({ status: 'ok' });

    const second = snapshotOf(planned(false));
    expect(await second.list('docs')).toMatchObject({ status: 'ok' });
    const held = second.held?.();
    expect(await held?.read('docs/AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Rules\n' });
    expect(await held?.read('skills/review/SKILL.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'Review carefully.\n' });
    expect(tree.calls.blobs).toEqual([]);
  });

  it('does not hold a carried blob whose bytes do not hash to its id', async () => {
    const tree = await createMemoryTree(files);
    const scope = uniqueScope();
    const oid = tree.oidOf('docs/AGENTS.md');
    const whole = await tree.loader.loadTree();
    const forged = new TextEncoder().encode('# Forged\n');
    const planned = (heldBlob?: (oid: string) => Uint8Array | undefined): TreeLoader => ({
      ...tree.loader,
      loadPartial: async () => ({ dirs: [{ path: 'docs', entries: whole.filter((entry) => entry.path === 'docs/AGENTS.md') }], entries: [], absent: [] }),
      ...(heldBlob ? { heldBlob } : {}),
    });
    const plan = { dirs: ['docs'], files: [], walks: [] };
    const snapshotOf = (loader: TreeLoader) => createTreeSnapshot({ ...scope, uri: (path) => path, loader: createCachedLoader(loader, env.CACHE, scope), plan });
    // A read-ahead that brought other bytes under the id (stored as they came).
    expect(await snapshotOf(planned((asked) => (asked === oid ? forged : undefined))).list('docs')).toMatchObject({ status: 'ok' });

    const second = snapshotOf(planned());
    expect(await second.list('docs')).toMatchObject({ status: 'ok' });
    expect(await second.held?.().read('docs/AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'failed' });
    expect(await second.read('docs/AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Rules\n' });
  });

  it('falls back to the loader when the store itself fails', async () => {
    const tree = await createMemoryTree(files);
    const broken: KeyValueStore = {
      get: () => Promise.reject(new Error('KV unavailable')),
      put: () => Promise.reject(new Error('KV unavailable')),
    };
    const result = await snapshotWith(tree.loader, uniqueScope(), broken).read('AGENTS.md', { maxBytes: 100 });
    expect(result).toMatchObject({ status: 'ok', text: '# Rules\n' });
  });
});
