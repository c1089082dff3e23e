import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { createMemoryTree, gitBlobOid, type MemoryFile } from '../support/memory-tree.ts';

const COMMIT = 'c'.repeat(40);

async function snapshotOf(files: Record<string, MemoryFile>): Promise<Snapshot> {
  const { loader } = await createMemoryTree(files);
  return createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => `test:${path}@${COMMIT}`, loader });
}

const oidOf = async (files: Record<string, MemoryFile>, path: string): Promise<string> => (await createMemoryTree(files)).oidOf(path);

const sample: Record<string, MemoryFile> = {
  'AGENTS.md': { symlink: 'docs/AGENTS.md' },
  'README.md': 'hello\n',
  'docs/AGENTS.md': '# Rules\n',
  'docs/up.md': { symlink: '../README.md' },
  'docs/escape.md': { symlink: '../../etc/passwd' },
  'docs/absolute.md': { symlink: '/etc/passwd' },
  // Would be the target if an absolute link were joined onto the link's directory.
  'docs/etc/passwd': 'not the host file\n',
  'docs/dangling.md': { symlink: 'nowhere.md' },
  'docs/to-dir': { symlink: '../src' },
  'docs/chain.md': { symlink: 'up.md' },
  'src/deep/file.ts': 'export {};\n',
  'vendor/lib': { submodule: 'd'.repeat(40) },
  'bin/nul.dat': new Uint8Array([0x41, 0x00, 0x42]),
  'bin/latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
};

describe('listing a tree snapshot', () => {
  it('lists kinds, sizes and object ids in name order, root and nested', async () => {
    const snapshot = await snapshotOf(sample);
    const oid = (path: string) => oidOf(sample, path);
    expect(await snapshot.list('')).toEqual({
      status: 'ok',
      path: '',
      entries: [
        { name: 'AGENTS.md', path: 'AGENTS.md', kind: 'symlink', size: 14, oid: await oid('AGENTS.md') },
        { name: 'README.md', path: 'README.md', kind: 'file', size: 6, oid: await oid('README.md') },
        { name: 'bin', path: 'bin', kind: 'dir', oid: await oid('bin') },
        { name: 'docs', path: 'docs', kind: 'dir', oid: await oid('docs') },
        { name: 'src', path: 'src', kind: 'dir', oid: await oid('src') },
        { name: 'vendor', path: 'vendor', kind: 'dir', oid: await oid('vendor') },
      ],
    });
    expect(await snapshot.list('src/deep/')).toEqual({
      status: 'ok',
      path: 'src/deep',
      entries: [{ name: 'file.ts', path: 'src/deep/file.ts', kind: 'file', size: 11, oid: await oid('src/deep/file.ts') }],
    });
    expect(await snapshot.list('vendor')).toMatchObject({ entries: [{ name: 'lib', kind: 'submodule' }] });
  });

  it('tells a missing directory from a file', async () => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.list('nope')).toEqual({ status: 'missing', path: 'nope' });
    expect(await snapshot.list('README.md')).toEqual({ status: 'not-a-directory', path: 'README.md' });
  });
});

describe('path confinement', () => {
  it.each([
    ['../README.md', 'path escapes the repository root'],
    ['docs/../../README.md', 'path escapes the repository root'],
    ['/etc/passwd', 'path is absolute'],
    ['docs\\AGENTS.md', 'path contains a backslash'],
    ['README.md\0.txt', 'path contains a NUL byte'],
  ])('refuses %j on read and list', async (path, reason) => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.read(path, { maxBytes: 100 })).toEqual({ status: 'invalid-path', path, reason });
    expect(await snapshot.list(path)).toEqual({ status: 'invalid-path', path, reason });
  });

  it('normalises a path that stays inside the tree', async () => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.read('docs/./../README.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', path: 'README.md', text: 'hello\n' });
  });
});

describe('symlinks', () => {
  it('resolves a link to a regular file in the tree and records it', async () => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.read('AGENTS.md', { maxBytes: 100 })).toEqual({
      status: 'ok',
      path: 'AGENTS.md',
      text: '# Rules\n',
      size: 8,
      truncated: false,
      // The target's blob, not the link's (whose blob is only the path it points to).
      blob: await gitBlobOid('# Rules\n'),
      resolvedFrom: { link: 'AGENTS.md', target: 'docs/AGENTS.md' },
    });
    expect(await snapshot.read('docs/up.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', resolvedFrom: { target: 'README.md' } });
  });

  it.each([
    ['docs/escape.md', '../../etc/passwd', 'path escapes the repository root'],
    ['docs/absolute.md', '/etc/passwd', 'path is absolute'],
    ['docs/dangling.md', 'nowhere.md', 'target is not in the tree at this commit'],
    ['docs/to-dir', '../src', 'target is a dir, not a regular file'],
    ['docs/chain.md', 'up.md', 'target is a symlink, not a regular file'],
  ])('reports %s instead of following it', async (path, target, reason) => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.read(path, { maxBytes: 100 })).toEqual({ status: 'unresolved-symlink', path, target, reason });
  });
});

describe('decoding', () => {
  it('reports binary and invalid UTF-8 files with their size instead of text', async () => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.read('bin/nul.dat', { maxBytes: 100 })).toEqual({ status: 'binary', path: 'bin/nul.dat', size: 3, reason: 'nul-byte' });
    expect(await snapshot.read('bin/latin1.txt', { maxBytes: 100 })).toEqual({ status: 'binary', path: 'bin/latin1.txt', size: 4, reason: 'invalid-utf8' });
  });

  it('never splits a multi-byte character when truncating', async () => {
    // '€' is 3 bytes and '😀' is 4: every cut inside one must back off to its start.
    const snapshot = await snapshotOf({ 'text.md': 'a€😀b' });
    const cuts = [];
    for (let maxBytes = 0; maxBytes <= 9; maxBytes++) {
      const result = await snapshot.read('text.md', { maxBytes });
      cuts.push(result.status === 'ok' ? [result.text, result.truncated, result.size] : result.status);
    }
    expect(cuts).toEqual([
      ['', true, 9], ['a', true, 9], ['a', true, 9], ['a', true, 9], ['a€', true, 9],
      ['a€', true, 9], ['a€', true, 9], ['a€', true, 9], ['a€😀', true, 9], ['a€😀b', false, 9],
    ]);
  });

  it('reports a directory or submodule read as not a file', async () => {
    const snapshot = await snapshotOf(sample);
    expect(await snapshot.read('docs', { maxBytes: 10 })).toEqual({ status: 'not-a-file', path: 'docs', kind: 'dir' });
    expect(await snapshot.read('vendor/lib', { maxBytes: 10 })).toEqual({ status: 'not-a-file', path: 'vendor/lib', kind: 'submodule' });
  });
});

describe('loader failures', () => {
  it('turns a throwing loader into failed and retries on the next call', async () => {
    const { loader } = await createMemoryTree({ 'a.md': 'a' });
    let attempts = 0;
    const flaky: TreeLoader = {
      loadTree: async (signal) => (++attempts === 1 ? Promise.reject(new Error('network down')) : loader.loadTree(signal)),
      loadBlob: (oid, signal) => loader.loadBlob(oid, signal),
      loadCommit: async (signal) => (++attempts === 3 ? Promise.reject(new Error('commit lookup down')) : loader.loadCommit(signal)),
    };
    const snapshot = createTreeSnapshot({ repository: 'test:flaky', commit: COMMIT, uri: String, loader: flaky });
    expect(await snapshot.read('a.md', { maxBytes: 10 })).toEqual({ status: 'failed', path: 'a.md', reason: 'network down' });
    expect(await snapshot.read('a.md', { maxBytes: 10 })).toMatchObject({ status: 'ok', text: 'a' });
    expect(await snapshot.commitInfo()).toEqual({ status: 'failed', reason: 'commit lookup down' });
    expect(await snapshot.commitInfo()).toMatchObject({ status: 'ok', info: { committedAt: '2026-01-01T00:00:00Z' } });
  });

  it('lets an abort propagate instead of reporting a failure', async () => {
    const snapshot = await snapshotOf(sample);
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(snapshot.read('README.md', { maxBytes: 10, signal: controller.signal })).rejects.toThrow('deadline');
  });
});

describe('the tree a snapshot shares', () => {
  it('loads once for every reader, and one reader giving up never fails the others', async () => {
    const { loader, calls } = await createMemoryTree(sample);
    const slow: TreeLoader = {
      loadTree: async (signal) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        signal?.throwIfAborted();
        return loader.loadTree(signal);
      },
      loadBlob: (oid, signal) => loader.loadBlob(oid, signal),
      loadCommit: (signal) => loader.loadCommit(signal),
    };
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => `test:${path}@${COMMIT}`, loader: slow });
    const impatient = new AbortController();
    const first = snapshot.list('docs', { signal: impatient.signal });
    const second = snapshot.read('README.md', { maxBytes: 100, signal: new AbortController().signal });
    impatient.abort(new Error('rules exceeded 5000 ms'));
    await expect(first).rejects.toThrow('rules exceeded 5000 ms');
    expect(await second).toMatchObject({ status: 'ok', text: 'hello\n' });
    expect(calls.tree).toBe(1);
  });

  it('loads the commit’s facts once for every reader, and one reader giving up never fails the others', async () => {
    const { loader, calls } = await createMemoryTree(sample, COMMIT);
    const slow: TreeLoader = {
      ...loader,
      loadCommit: async (signal) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        signal?.throwIfAborted();
        return loader.loadCommit(signal);
      },
    };
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader: slow });
    const impatient = new AbortController();
    const first = snapshot.commitInfo({ signal: impatient.signal });
    const second = snapshot.commitInfo({ signal: new AbortController().signal });
    impatient.abort(new Error('system exceeded 3000 ms'));
    await expect(first).rejects.toThrow('system exceeded 3000 ms');
    expect(await second).toMatchObject({ status: 'ok', info: { commit: COMMIT } });
    expect(calls.commits).toBe(1);
  });

  it('loads under the snapshot signal and reports what cut it off as a failure', async () => {
    const { loader } = await createMemoryTree(sample);
    const stuck: TreeLoader = {
      loadTree: (signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
      loadBlob: (oid, signal) => loader.loadBlob(oid, signal),
      loadCommit: (signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const deadline = new AbortController();
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader: stuck, signal: deadline.signal });
    const listing = snapshot.list('');
    const facts = snapshot.commitInfo();
    deadline.abort(new Error('assembly deadline'));
    expect(await listing).toEqual({ status: 'failed', path: '', reason: 'assembly deadline' });
    expect(await facts).toEqual({ status: 'failed', reason: 'assembly deadline' });
  });
});

describe('listings a snapshot already holds (listed)', () => {
  it('answers from the planned read-ahead and from a listed parent, says undefined for the rest, and never loads the tree for it', async () => {
    const { loader, calls } = await createMemoryTree(sample);
    const whole = await loader.loadTree();
    const entries = (dir: string) => whole.filter((entry) => entry.path.startsWith(dir === '' ? '' : `${dir}/`) && !entry.path.slice(dir === '' ? 0 : dir.length + 1).includes('/'));
    calls.tree = 0;
    const planned: TreeLoader = { ...loader, loadPartial: async () => ({ dirs: [{ path: '', entries: entries('') }, { path: 'src', entries: entries('src') }], entries: [], absent: [] }) };
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader: planned, plan: { dirs: ['', 'src'], files: [], walks: [] } });
    expect(await snapshot.listed?.('src')).toMatchObject({ status: 'ok', entries: [{ name: 'deep', kind: 'dir' }] });
    expect(await snapshot.listed?.('nope')).toEqual({ status: 'missing', path: 'nope' });
    expect(await snapshot.listed?.('README.md')).toEqual({ status: 'not-a-directory', path: 'README.md' });
    expect(await snapshot.listed?.('src/deep')).toBeUndefined();
    expect(await snapshot.listed?.('docs')).toBeUndefined();
    expect(calls.tree).toBe(0);
    // Once a reader loaded the whole tree, every listing is held.
    expect(await snapshot.list('docs')).toMatchObject({ status: 'ok' });
    expect(calls.tree).toBe(1);
    expect(await snapshot.listed?.('src/deep')).toMatchObject({ status: 'ok', entries: [{ name: 'file.ts' }] });
    expect(calls.tree).toBe(1);
  });
});

describe('the held view (held): what a snapshot holds, and no load', () => {
  it('answers listings and reads from the read-ahead, the loader’s held blobs and earlier reads, and failed for the rest, starting no load', async () => {
    const { loader, calls, oidOf } = await createMemoryTree(sample);
    const whole = await loader.loadTree();
    const entries = (dir: string) => whole.filter((entry) => entry.path.startsWith(dir === '' ? '' : `${dir}/`) && !entry.path.slice(dir === '' ? 0 : dir.length + 1).includes('/'));
    calls.tree = 0;
    const readme = oidOf('README.md');
    const brought = new Map([[readme, await loader.loadBlob(readme)]]);
    calls.blobs = [];
    const planned: TreeLoader = {
      ...loader,
      loadPartial: async () => ({ dirs: [{ path: '', entries: entries('') }, { path: 'src', entries: entries('src') }], entries: [], absent: [] }),
      heldBlob: (oid) => brought.get(oid),
    };
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader: planned, plan: { dirs: ['', 'src'], files: [], walks: [] } });
    const held = snapshot.held?.();
    if (!held) throw new Error('a tree snapshot offers a held view');

    // Before the read-ahead is asked for, the view holds nothing, and asking it does not start it.
    expect(await held.list('src')).toMatchObject({ status: 'failed', path: 'src' });
    expect(await snapshot.list('')).toMatchObject({ status: 'ok' });

    expect(await held.list('src')).toMatchObject({ status: 'ok', entries: [{ name: 'deep', kind: 'dir' }] });
    expect(await held.list('nope')).toEqual({ status: 'missing', path: 'nope' });
    expect(await held.read('README.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'hello\n', blob: readme });
    expect(await held.listed?.('src/deep')).toBeUndefined();
    expect(await held.list('src/deep')).toMatchObject({ status: 'failed', path: 'src/deep', reason: expect.stringContaining('not held') });
    // Listed by the read-ahead, its blob neither held by the loader nor read yet.
    expect(await held.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'failed', path: 'AGENTS.md' });
    expect(await held.readBytes?.('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'failed' });
    expect(calls).toMatchObject({ tree: 0, blobs: [], commits: 0 });

    // What the snapshot read since, it holds: the link's blob, then its target's listing with the whole tree.
    expect(await snapshot.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Rules\n' });
    const loads = { tree: calls.tree, blobs: calls.blobs.length };
    expect(await held.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Rules\n', resolvedFrom: { link: 'AGENTS.md', target: 'docs/AGENTS.md' } });
    expect(await held.list('src/deep')).toMatchObject({ status: 'ok', entries: [{ name: 'file.ts' }] });
    expect({ tree: calls.tree, blobs: calls.blobs.length }).toEqual(loads);
  });

  it('gives the commit’s facts only once they are loaded or read ahead', async () => {
    const { loader, calls } = await createMemoryTree(sample);
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader });
    const held = snapshot.held?.();
    expect(await held?.commitInfo()).toMatchObject({ status: 'failed', reason: expect.stringContaining('not held') });
    expect(calls.commits).toBe(0);
    expect(await snapshot.commitInfo()).toMatchObject({ status: 'ok' });
    expect(await held?.commitInfo()).toMatchObject({ status: 'ok', info: { committedAt: '2026-01-01T00:00:00Z' } });
    expect(calls.commits).toBe(1);
  });

  it('lets the caller’s abort propagate from its reads and the commit’s facts, as the loading view does', async () => {
    const { loader } = await createMemoryTree(sample);
    const snapshot = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader, plan: { dirs: [''], files: [], walks: [] } });
    const planned = createTreeSnapshot({ repository: 'test:memory', commit: COMMIT, uri: (path) => path, loader: { ...loader, loadPartial: async () => ({ dirs: [], entries: [], absent: [] }) }, plan: { dirs: [''], files: [], walks: [] } });
    await planned.list('');
    const aborted = AbortSignal.abort(new Error('caller gave up'));
    await expect(planned.held?.().commitInfo({ signal: aborted })).rejects.toThrow('caller gave up');
    await expect(snapshot.held?.().list('', { signal: aborted })).rejects.toThrow('caller gave up');
    await expect(snapshot.list('', { signal: aborted })).rejects.toThrow('caller gave up');
  });
});
