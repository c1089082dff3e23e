/**
 * @module test/support/memory-tree
 * An in-memory TreeLoader with real git blob ids, counting every call, for tests of the shared
 * snapshot and of the cache. Runs in workerd and in Node.
 */
import { toHex } from '../../src/lib/sha256.ts';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot, type FlatTreeEntry, type TreeLoader } from '../../src/sources/tree-snapshot.ts';

export type MemoryFile = string | Uint8Array | { symlink: string } | { submodule: string };

/** The commit a memory tree describes unless told otherwise, and its fixed dates. */
export const MEMORY_COMMIT = 'a'.repeat(40);
export const MEMORY_COMMITTED_AT = '2026-01-01T00:00:00Z';

export interface MemoryTree {
  loader: TreeLoader;
  calls: { tree: number; blobs: string[]; commits: number };
  /** Blob oid of the file or link at `path`. */
  oidOf(path: string): string;
}

/** The id git gives a blob; tests compute it from what they wrote, so a wrong id fails. */
export async function gitBlobOid(content: string | Uint8Array): Promise<string> {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const header = new TextEncoder().encode(`blob ${bytes.byteLength}\0`);
  const object = new Uint8Array(header.byteLength + bytes.byteLength);
  object.set(header);
  object.set(bytes, header.byteLength);
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', object)));
}

export async function createMemoryTree(files: Record<string, MemoryFile>, commit = MEMORY_COMMIT): Promise<MemoryTree> {
  const entries: FlatTreeEntry[] = [];
  const blobs = new Map<string, Uint8Array>();
  const dirs = new Set<string>();
  for (const [path, content] of Object.entries(files)) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth++) dirs.add(parts.slice(0, depth).join('/'));
    if (typeof content === 'object' && 'submodule' in content) {
      entries.push({ path, kind: 'submodule', oid: content.submodule });
      continue;
    }
    const isLink = typeof content === 'object' && 'symlink' in content;
    const bytes = isLink ? new TextEncoder().encode(content.symlink) : typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const oid = await gitBlobOid(bytes);
    blobs.set(oid, bytes);
    entries.push({ path, kind: isLink ? 'symlink' : 'file', oid, size: bytes.byteLength });
  }
  for (const dir of dirs) entries.push({ path: dir, kind: 'dir', oid: `tree:${dir}` });

  const calls = { tree: 0, blobs: [] as string[], commits: 0 };
  return {
    calls,
    oidOf: (path) => entries.find((entry) => entry.path === path)?.oid ?? '',
    loader: {
      async loadTree(signal) {
        signal?.throwIfAborted();
        calls.tree++;
        return entries.map((entry) => ({ ...entry }));
      },
      async loadBlob(oid, signal) {
        signal?.throwIfAborted();
        calls.blobs.push(oid);
        const bytes = blobs.get(oid);
        if (!bytes) throw new Error(`no blob ${oid}`);
        return bytes;
      },
      async loadCommit(signal) {
        signal?.throwIfAborted();
        calls.commits++;
        return { commit, tree: 'e'.repeat(40), parents: [], committedAt: MEMORY_COMMITTED_AT, authoredAt: MEMORY_COMMITTED_AT };
      },
    },
  };
}

/** A snapshot of `files` at `commit` (default: the commit of test/support/providers.ts). */
export async function memorySnapshot(files: Record<string, MemoryFile>, commit = MEMORY_COMMIT): Promise<Snapshot> {
  const tree = await createMemoryTree(files, commit);
  return createTreeSnapshot({ repository: 'memory:test', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader });
}
