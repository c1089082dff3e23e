import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/env.ts';
import type { KeyValueStore } from '../../src/sources/cached-json.ts';
import { createCachedLoader } from '../../src/sources/cached-loader.ts';
import { MAX_CACHED_PLANS, planDigest, READ_AHEADS_SCHEMA, readAheadsAhead, readAheadsKey, readCachedReadAheads, withReadAhead, type CachedReadAheads } from '../../src/sources/cached-read-aheads.ts';
import { mergePartialTrees, type PartialTree } from '../../src/sources/partial-tree.ts';
import type { ReadPlan } from '../../src/sources/read-plan.ts';
import { writeBehind } from '../../src/sources/write-behind.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { openTaskSource } from '../../src/tasks/open-source.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { createMemoryTree } from '../support/memory-tree.ts';

const files = {
  'AGENTS.md': '# Root rules\n',
  'docs/AGENTS.md': '# Docs rules\n',
  'skills/review/SKILL.md': 'Review carefully.\n',
};

const DOCS: ReadPlan = { dirs: ['docs'], files: [], walks: [] };
const SKILLS: ReadPlan = { dirs: ['skills/review'], files: [], walks: [] };

/** A store of its own over the test namespace, counting the reads of read-ahead values. */
function countingStore(log: string[] = []): { store: KeyValueStore; partialGets: () => number } {
  const own = `read-aheads-${crypto.randomUUID()}:`;
  let partial = 0;
  return {
    store: {
      get: (key, type) => {
        if (key.includes('gw:partial:')) (partial++, log.push('read-aheads read'));
        return env.CACHE.get(own + key, type);
      },
      put: (key, value, options) => env.CACHE.put(own + key, value, options),
    },
    partialGets: () => partial,
  };
}

let counter = 0;
function uniqueScope(): { repository: string; commit: string } {
  counter++;
  return { repository: `https://git.example.test/read-aheads-${counter}-${crypto.randomUUID()}.git`, commit: counter.toString(16).padStart(40, 'b') };
}

/** A loader whose read-ahead answers each plan's directories from the memory tree, counting the plans it was asked. */
async function plannedLoader(): Promise<{ loader: TreeLoader; asked: string[] }> {
  const tree = await createMemoryTree(files);
  const whole = await tree.loader.loadTree();
  const asked: string[] = [];
  const loader: TreeLoader = {
    ...tree.loader,
    async loadPartial(plan) {
      asked.push(plan.dirs.join(','));
      return { dirs: plan.dirs.map((dir) => ({ path: dir, entries: whole.filter((entry) => entry.path.startsWith(`${dir}/`) && !entry.path.slice(dir.length + 1).includes('/')) })), entries: [], absent: [] };
    },
  };
  return { loader, asked };
}

function snapshotOf(loader: TreeLoader, store: KeyValueStore, scope: { repository: string; commit: string }, plan: ReadPlan, readAheads?: ReturnType<typeof readCachedReadAheads>) {
  return createTreeSnapshot({ ...scope, uri: (path) => path, loader: createCachedLoader(loader, store, scope, readAheads ? { readAheads } : {}), plan });
}

describe("a commit's read-aheads, cached as one value", () => {
  it('serves every plan the value names from one read, and adds a plan it does not name', async () => {
    const { loader, asked } = await plannedLoader();
    const { store, partialGets } = countingStore();
    const scope = uniqueScope();

    expect(await snapshotOf(loader, store, scope, DOCS).list('docs')).toMatchObject({ status: 'ok' });
    expect(await snapshotOf(loader, store, scope, SKILLS).list('skills/review')).toMatchObject({ status: 'ok' });
    expect(asked).toEqual(['docs', 'skills/review']);
    const stored = await readCachedReadAheads(store, scope);
    expect(stored.hit && stored.value.plans).toEqual([await planDigest(DOCS), await planDigest(SKILLS)]);

    // Both plans again: no read-ahead, one read of the value each, and the union answers either.
    const gets = partialGets();
    const docs = snapshotOf(loader, store, scope, DOCS);
    expect(await docs.list('docs')).toMatchObject({ status: 'ok', entries: [{ path: 'docs/AGENTS.md' }] });
    expect(await docs.list('skills/review')).toMatchObject({ status: 'ok', entries: [{ path: 'skills/review/SKILL.md' }] });
    expect(await snapshotOf(loader, store, scope, SKILLS).list('skills/review')).toMatchObject({ status: 'ok' });
    expect(asked).toEqual(['docs', 'skills/review']);
    expect(partialGets() - gets).toBe(2);
  });

  it('takes a read begun before the plan was made instead of reading the store again', async () => {
    const { loader, asked } = await plannedLoader();
    const { store, partialGets } = countingStore();
    const scope = uniqueScope();
    await snapshotOf(loader, store, scope, DOCS).list('docs');
    const ahead = readAheadsAhead(store);
    ahead.start(scope);
    ahead.start(scope);
    const taken = ahead.take(scope);
    expect(await taken).toMatchObject({ hit: true });
    // The first snapshot's read and the one begun ahead: starting twice is one read.
    expect(partialGets()).toBe(2);
    // Taken once: the next snapshot at the commit reads the store itself, as the value may have grown.
    expect(ahead.take(scope)).toBeUndefined();
    expect(await snapshotOf(loader, store, scope, DOCS, taken).list('docs')).toMatchObject({ status: 'ok' });
    expect(partialGets()).toBe(2);
    expect(asked).toEqual(['docs']);
    // Asked for after its snapshot was made: not begun.
    ahead.start(scope);
    expect(ahead.take(scope)).toBeUndefined();
    expect(partialGets()).toBe(2);
  });

  it('takes a stored value it cannot read for a miss, reads the plan ahead and writes the value again', async () => {
    const { loader, asked } = await plannedLoader();
    const { store } = countingStore();
    const scope = uniqueScope();
    const digest = await planDigest(DOCS);
    const key = await readAheadsKey(scope);
    const good = { schema: READ_AHEADS_SCHEMA, plans: [digest], tree: { dirs: [{ path: 'docs', entries: [] }], entries: [], absent: [] }, blobs: [] };
    const stored = [
      'not json',
      JSON.stringify({ ...good, schema: 3 }),
      // A path no tree holds, an entry without an id, more plans than a value names.
      JSON.stringify({ ...good, tree: { ...good.tree, dirs: [{ path: '../docs', entries: [] }] } }),
      JSON.stringify({ ...good, tree: { ...good.tree, entries: [{ path: 'docs/AGENTS.md', kind: 'file' }] } }),
      JSON.stringify({ ...good, plans: Array.from({ length: MAX_CACHED_PLANS + 1 }, () => digest) }),
    ];
    for (const [index, text] of stored.entries()) {
      await store.put(key, text);
      expect(await snapshotOf(loader, store, scope, DOCS).list('docs')).toMatchObject({ status: 'ok', entries: [{ path: 'docs/AGENTS.md' }] });
      expect(asked).toHaveLength(index + 1);
      const rewritten = await readCachedReadAheads(store, scope);
      expect(rewritten.hit && rewritten.value.plans).toEqual([digest]);
    }
  });

  it("builds the value it writes (the blobs in base64) when a deferred write runs, not on the reader's path", async () => {
    const { loader } = await plannedLoader();
    const whole = await loader.loadTree();
    const held = new Map<string, Uint8Array>();
    for (const entry of whole) if (entry.kind === 'file') held.set(entry.oid, await loader.loadBlob(entry.oid));
    let asked = 0;
    const holding: TreeLoader = { ...loader, heldBlob: (oid) => (asked++, held.get(oid)) };
    const { store } = countingStore();
    const behind = writeBehind(store, { hold: true });
    const scope = uniqueScope();

    expect(await snapshotOf(holding, behind, scope, DOCS).list('docs')).toMatchObject({ status: 'ok' });
    // Read and answered; the value to store is not made yet.
    expect(asked).toBe(0);
    await behind.settled();
    expect(asked).toBeGreaterThan(0);
    const stored = await readCachedReadAheads(store, scope);
    expect(stored.hit && stored.value.blobs.map((blob) => atob(blob.base64))).toEqual(['# Docs rules\n']);
  });

  it('starts again with the plan just read once the value is full', () => {
    const tree = (dir: string): PartialTree => ({ dirs: [{ path: dir, entries: [] }], entries: [], absent: [] });
    const blob = (oid: string, size: number) => ({ oid, size, base64: '' });
    const full: CachedReadAheads = { schema: READ_AHEADS_SCHEMA, plans: Array.from({ length: MAX_CACHED_PLANS }, (_, index) => `plan-${index}`), tree: tree('a'), blobs: [] };
    expect(withReadAhead(full, 'new', tree('b'), [], 100)).toEqual({ schema: READ_AHEADS_SCHEMA, plans: ['new'], tree: tree('b'), blobs: [] });

    const some: CachedReadAheads = { schema: READ_AHEADS_SCHEMA, plans: ['one'], tree: tree('a'), blobs: [blob('x', 60)] };
    // Over the blobs' budget together: the new plan alone, with its own blobs.
    expect(withReadAhead(some, 'two', tree('b'), [blob('y', 50)], 100)).toEqual({ schema: READ_AHEADS_SCHEMA, plans: ['two'], tree: tree('b'), blobs: [blob('y', 50)] });
    // Within it: joined, a blob both carry counted once, a plan read again moved last.
    const joined = withReadAhead({ ...some, plans: ['two', 'one'] }, 'two', tree('b'), [blob('x', 60), blob('y', 30)], 100);
    expect(joined).toEqual({ schema: READ_AHEADS_SCHEMA, plans: ['one', 'two'], tree: mergePartialTrees(tree('a'), tree('b')), blobs: [blob('x', 60), blob('y', 30)] });
  });

  it("joins two parts of a commit's tree, keeping the first listing of a directory both listed", () => {
    const entry = (path: string) => ({ path, kind: 'file' as const, oid: `oid-${path}` });
    const a: PartialTree = { dirs: [{ path: 'docs', entries: [entry('docs/a.md')] }], entries: [entry('x/y.md')], absent: ['gone'], commit: { commit: 'c'.repeat(40), committedAt: '2026-01-01T00:00:00Z' } as PartialTree['commit'] };
    const b: PartialTree = { dirs: [{ path: 'docs', entries: [] }, { path: 'src', entries: [entry('src/b.ts')] }], entries: [entry('x/y.md'), entry('z.md')], absent: ['gone', 'missing'] };
    expect(mergePartialTrees(a, b)).toEqual({
      dirs: [{ path: 'docs', entries: [entry('docs/a.md')] }, { path: 'src', entries: [entry('src/b.ts')] }],
      entries: [entry('x/y.md'), entry('z.md')],
      absent: ['gone', 'missing'],
      commit: a.commit,
    });
  });
});

describe("a pull request task's source", () => {
  const fx = githubFixture();

  it("reads the base's cached read-aheads as it opens, and its snapshot at the base reads them no more", async () => {
    const scope = createApiScope();
    const config = ConfigSchema.parse({ GITHUB_API_URL: scope.baseUrl, GITHUB_TOKEN: fx.token });
    const log: string[] = [];
    const { store, partialGets } = countingStore(log);
    const plan: ReadPlan = { dirs: [''], files: ['AGENTS.md'], walks: [] };
    const read = async () => {
      log.length = 0;
      const opened = await openTaskSource({ repo: `${fx.owner}/${fx.repo}`, baseCommit: fx.commits.head }, { config, fetch, cache: store });
      // A request to the test server, as a task lists its pull request's files before it plans.
      await scope.count('/graphql');
      log.push('snapshot');
      const result = await opened.source.snapshot(fx.commits.head, { plan }).read('AGENTS.md', { maxBytes: 4096 });
      await opened.settled?.();
      return { status: result.status, log: [...log] };
    };

    // Cold: the value was read (and missed) before the snapshot was made; the plan was read ahead.
    expect(await read()).toEqual({ status: 'ok', log: ['read-aheads read', 'snapshot'] });
    expect({ graphql: await scope.count('/graphql'), partialGets: partialGets() }).toEqual({ graphql: 1, partialGets: 1 });
    // The next task on the same base: the one read, begun at open, serves the plan; GitHub's GraphQL is not asked.
    expect(await read()).toEqual({ status: 'ok', log: ['read-aheads read', 'snapshot'] });
    expect({ graphql: await scope.count('/graphql'), partialGets: partialGets() }).toEqual({ graphql: 1, partialGets: 2 });

    // Begun when the caller says (the Task object: once its next GitHub request is out), not before.
    log.length = 0;
    let go = () => {};
    const after = new Promise<void>((resolve) => (go = resolve));
    const opened = await openTaskSource({ repo: `${fx.owner}/${fx.repo}`, baseCommit: fx.commits.head }, { config, fetch, cache: store, readAheadsAfter: () => after });
    await scope.count('/graphql');
    log.push('told');
    go();
    await scope.count('/graphql');
    log.push('snapshot');
    expect(await opened.source.snapshot(fx.commits.head, { plan }).read('AGENTS.md', { maxBytes: 4096 })).toMatchObject({ status: 'ok' });
    expect(log).toEqual(['told', 'read-aheads read', 'snapshot']);
    expect(partialGets()).toBe(3);
  });
});
