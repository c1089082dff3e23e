/**
 * @module sources/tree-snapshot
 * A Snapshot built from two primitives every git backend has: the flat recursive tree of a
 * commit and blobs by object id. Listing, confinement, symlink policy and decoding live here
 * once, so the GitHub API and isomorphic-git sources differ only in how they load objects.
 */
import { decodeBlob } from './decode.ts';
import { joinPath, normalisePath, parentOf } from './paths.ts';
import { untilAborted } from '../lib/abortable.ts';
import { PermanentSourceError } from './permanent.ts';
import type { CommitSha, ListResult, ReadOptions, ReadResult, Snapshot, SnapshotOptions, SourceFailure, TreeEntry, TreeEntryKind } from './snapshot.ts';

export interface FlatTreeEntry {
  /** Normalised path from the root. */
  path: string;
  kind: TreeEntryKind;
  /** Object id of the blob (files, symlinks), tree (dirs) or commit (submodules). */
  oid: string;
  size?: number;
}

/** Loads git objects for one commit. Implementations may throw; the snapshot turns that into `failed`. */
export interface TreeLoader {
  loadTree(signal?: AbortSignal): Promise<FlatTreeEntry[]>;
  loadBlob(oid: string, signal?: AbortSignal): Promise<Uint8Array>;
}

export interface TreeSnapshotOptions extends SnapshotOptions {
  repository: string;
  commit: CommitSha;
  uri: (path: string) => string;
  loader: TreeLoader;
}

interface TreeIndex {
  byPath: Map<string, FlatTreeEntry>;
  children: Map<string, TreeEntry[]>;
}

export function createTreeSnapshot(options: TreeSnapshotOptions): Snapshot {
  const { loader } = options;
  let index: Promise<TreeIndex> | undefined;

  const loadIndex = (signal?: AbortSignal): Promise<TreeIndex> => {
    signal?.throwIfAborted();
    if (!index) {
      // Shared by every caller, so it runs under the snapshot's signal, not the first caller's.
      index = loader.loadTree(options.signal).then(buildIndex);
      // A failed load is not memoised: the next call may succeed.
      index.catch(() => (index = undefined));
    }
    return untilAborted(index, signal);
  };

  const readBlob = async (
    entry: FlatTreeEntry,
    requested: string,
    { maxBytes, signal }: ReadOptions,
    resolvedFrom?: { link: string; target: string },
  ): Promise<ReadResult> => {
    const bytes = await loader.loadBlob(entry.oid, signal);
    const decoded = decodeBlob(bytes, maxBytes);
    if (decoded.kind === 'binary') return { status: 'binary', path: requested, size: bytes.length, reason: decoded.reason };
    return {
      status: 'ok',
      path: requested,
      text: decoded.text,
      size: bytes.length,
      truncated: decoded.truncated,
      ...(resolvedFrom ? { resolvedFrom } : {}),
    };
  };

  return {
    repository: options.repository,
    commit: options.commit,
    uri: options.uri,

    async list(dir, { signal } = {}): Promise<ListResult> {
      const normal = normalisePath(dir);
      if (!normal.ok) return { status: 'invalid-path', path: dir, reason: normal.reason };
      const path = normal.path;
      try {
        const tree = await loadIndex(signal);
        if (path !== '') {
          const entry = tree.byPath.get(path);
          if (!entry) return { status: 'missing', path };
          if (entry.kind !== 'dir') return { status: 'not-a-directory', path };
        }
        return { status: 'ok', path, entries: tree.children.get(path) ?? [] };
      } catch (error) {
        return failure(path, error, signal);
      }
    },

    async read(path, readOptions): Promise<ReadResult> {
      const normal = normalisePath(path);
      if (!normal.ok) return { status: 'invalid-path', path, reason: normal.reason };
      const requested = normal.path;
      const { signal } = readOptions;
      try {
        const tree = await loadIndex(signal);
        const entry = tree.byPath.get(requested);
        if (!entry) return { status: 'missing', path: requested };
        if (entry.kind === 'file') return await readBlob(entry, requested, readOptions);
        if (entry.kind !== 'symlink') return { status: 'not-a-file', path: requested, kind: entry.kind };

        // A link's blob is its target path; never hand that to a model as file content.
        const target = new TextDecoder().decode(await loader.loadBlob(entry.oid, signal));
        // An absolute target must be refused, not re-rooted under the link's directory.
        const resolved = target.startsWith('/') ? normalisePath(target) : joinPath(parentOf(requested), target);
        if (!resolved.ok) return { status: 'unresolved-symlink', path: requested, target, reason: resolved.reason };
        const targetEntry = tree.byPath.get(resolved.path);
        if (!targetEntry) return { status: 'unresolved-symlink', path: requested, target, reason: 'target is not in the tree at this commit' };
        if (targetEntry.kind !== 'file') {
          return { status: 'unresolved-symlink', path: requested, target, reason: `target is a ${targetEntry.kind}, not a regular file` };
        }
        return await readBlob(targetEntry, requested, readOptions, { link: requested, target: resolved.path });
      } catch (error) {
        return failure(requested, error, signal);
      }
    },
  };
}

function buildIndex(entries: FlatTreeEntry[]): TreeIndex {
  const byPath = new Map<string, FlatTreeEntry>();
  const children = new Map<string, TreeEntry[]>();
  for (const entry of entries) {
    byPath.set(entry.path, entry);
    const dir = parentOf(entry.path);
    const name = entry.path.slice(dir === '' ? 0 : dir.length + 1);
    const listed: TreeEntry = { name, path: entry.path, kind: entry.kind, ...(entry.size === undefined ? {} : { size: entry.size }) };
    const siblings = children.get(dir);
    if (siblings) siblings.push(listed);
    else children.set(dir, [listed]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { byPath, children };
}

function failure(path: string, error: unknown, signal?: AbortSignal): SourceFailure {
  // Abort is the caller's decision, not a property of the repository: let it propagate.
  if (signal?.aborted) throw signal.reason;
  const reason = error instanceof Error ? error.message : String(error);
  return { status: 'failed', path, reason, ...(error instanceof PermanentSourceError ? { permanent: true } : {}) };
}
