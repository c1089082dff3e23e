/**
 * @module sources/tree-snapshot
 * A Snapshot built from two primitives every git backend has: the flat recursive tree of a
 * commit and blobs by object id. Listing, confinement, symlink policy and decoding live here
 * once, so the GitHub API and git sources differ only in how they load objects.
 *
 * What the snapshot loads once for every caller (the tree, its directories, a read-ahead) runs
 * under the snapshot's own signal, e.g. an assembly's deadline; each call waits for it under its
 * caller's signal. So one reader giving up (a provider's timeout) neither cancels the load for the
 * others nor is held by it.
 */
import { decodeBlob } from './decode.ts';
import { indexPartialTree, isConsistent, type PartialIndex, type PartialTree } from './partial-tree.ts';
import { joinPath, normalisePath, parentOf } from './paths.ts';
import { isEmptyPlan, type ReadPlan } from './read-plan.ts';
import { untilAborted } from '../lib/abortable.ts';
import { PermanentSourceError } from './permanent.ts';
import type { BytesResult, CommitInfo, CommitInfoResult, CommitSha, ListResult, ReadOptions, ReadResult, Snapshot, SnapshotOptions, SourceFailure, TreeEntry, TreeEntryKind } from './snapshot.ts';

export interface FlatTreeEntry {
  /** Normalised path from the root. */
  path: string;
  kind: TreeEntryKind;
  /** Object id of the blob (files, symlinks), tree (dirs) or commit (submodules). */
  oid: string;
  size?: number;
}

/** Thrown by a loader that declines an optional read; the snapshot answers `skipped` with its message. */
export class SkippedRead extends Error {
  override readonly name = 'SkippedRead';
}

/** Loads git objects for one commit. Implementations may throw; the snapshot turns that into `failed`. */
export interface TreeLoader {
  loadTree(signal?: AbortSignal): Promise<FlatTreeEntry[]>;
  /** `optional`: the reader can do without it, so a loader short of budget may throw SkippedRead. */
  loadBlob(oid: string, signal?: AbortSignal, options?: { optional?: boolean }): Promise<Uint8Array>;
  /** The commit object's facts (see {@link CommitInfo}). */
  loadCommit(signal?: AbortSignal): Promise<CommitInfo>;
  /**
   * The entries of one directory (`tree` is its tree oid, undefined for the root). A loader for
   * which reading a tree is cheap offers this, so a snapshot reads only the directories it is
   * asked about instead of the whole commit (`loadTree` is then never called).
   */
  loadDirectory?(tree: string | undefined, path: string, signal?: AbortSignal): Promise<FlatTreeEntry[]>;
  /**
   * The part of the tree a plan needs, cheaper than the whole (and, for some loaders, with the
   * planned blobs on board for `loadBlob`). Optional; a failure falls back to the whole tree,
   * except a `PermanentSourceError`, which a loader throws only when the whole tree would fail
   * the same way (credentials that cannot work): readers then fail with it at once.
   */
  loadPartial?(plan: ReadPlan, signal?: AbortSignal): Promise<PartialTree>;
  /**
   * A blob this loader holds in memory already (what `loadPartial` brought on board), else
   * undefined; no read. A loader in front of this one (the KV cache, sources/cached-loader) asks
   * it before its own store, so a blob in hand costs no round trip to look it up there.
   */
  heldBlob?(oid: string): Uint8Array | undefined;
  /** A blob's size without reading it, when the loader can tell (a local pack's headers); undefined when not. */
  blobSize?(oid: string, signal?: AbortSignal): Promise<number | undefined>;
}

/** What list and read need from a tree: one entry by path, and the entries of one directory. */
interface TreeView {
  entry(path: string, signal?: AbortSignal): Promise<FlatTreeEntry | undefined>;
  children(dir: string, signal?: AbortSignal): Promise<TreeEntry[]>;
  /** Whether `entry` and `children` of `dir` are answered without another load. */
  holds(dir: string): boolean;
}

/** `plan`: what the readers will ask for, answered from `loadPartial` where it can. `signal`: bounds the shared loads. */
export interface TreeSnapshotOptions extends SnapshotOptions {
  repository: string;
  commit: CommitSha;
  uri: (path: string) => string;
  loader: TreeLoader;
}

/** Blobs a snapshot keeps once read: rule files and links, not bundles. */
const MAX_KEPT_BLOB_BYTES = 64 * 1024;
const MAX_KEPT_BLOBS = 256;

interface TreeIndex {
  byPath: Map<string, FlatTreeEntry>;
  children: Map<string, TreeEntry[]>;
}

export function createTreeSnapshot(options: TreeSnapshotOptions): Snapshot {
  const { loader, plan, signal: lifetime } = options;
  const tree = loader.loadDirectory ? lazyView(loader.loadDirectory.bind(loader), lifetime) : flatView(loader, lifetime);
  let commitInfo: Promise<CommitInfo> | undefined;
  let partial: Promise<PartialIndex | undefined> | undefined;
  // Small blobs already read, by id: a symlink's target or a copy another reader read before
  // (a CLAUDE.md linked to the AGENTS.md beside it) costs no second request. A read still under
  // way is joined (each caller under its own signal) rather than started again: which reader
  // asks first depends on timing, and the count of requests must not.
  const small = new Map<string, Uint8Array>();
  const reading = new Map<string, Promise<Uint8Array>>();
  const loadBlob = async (oid: string, signal?: AbortSignal, blobOptions?: { optional?: boolean }): Promise<Uint8Array> => {
    const known = small.get(oid);
    if (known) return known;
    const pending = reading.get(oid);
    if (pending) {
      const joined = await untilAborted(pending, signal).catch((error: unknown) => {
        // Our own signal ended the wait: that is our failure. The other reader's failure is not.
        if (signal?.aborted) throw error;
        return undefined;
      });
      if (joined) return joined;
    }
    const read = loader.loadBlob(oid, signal, blobOptions);
    reading.set(oid, read);
    try {
      const bytes = await read;
      if (bytes.byteLength <= MAX_KEPT_BLOB_BYTES && small.size < MAX_KEPT_BLOBS) small.set(oid, bytes);
      return bytes;
    } finally {
      if (reading.get(oid) === read) reading.delete(oid);
    }
  };

  /** The planned part of the tree, or undefined when there is no plan or it could not be read ahead. */
  const loadPartial = (signal?: AbortSignal): Promise<PartialIndex | undefined> => {
    if (!plan || isEmptyPlan(plan) || !loader.loadPartial) return Promise.resolve(undefined);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const load = loader.loadPartial.bind(loader, plan);
    // A failed read-ahead only sends readers to the whole tree, which says why if it fails too.
    partial ??= shared(lifetime, () => load(lifetime)).then(
      (read) => (isConsistent(read) ? indexPartialTree(read) : undefined),
      (error: unknown) => (error instanceof PermanentSourceError ? Promise.reject(error) : undefined),
    );
    return untilAborted(partial, signal);
  };

  /** The entry at a normalised path, from the read-ahead when it knows (null there means absent). */
  const entryAt = async (path: string, signal?: AbortSignal): Promise<FlatTreeEntry | undefined> => {
    const known = (await loadPartial(signal))?.entry(path);
    if (known !== undefined) return known ?? undefined;
    return tree.entry(path, signal);
  };

  const readBlob = async (
    entry: FlatTreeEntry,
    requested: string,
    { maxBytes, signal, optional }: ReadOptions,
    resolvedFrom?: { link: string; target: string },
  ): Promise<ReadResult> => {
    const bytes = await loadBlob(entry.oid, signal, optional ? { optional } : undefined);
    const decoded = decodeBlob(bytes, maxBytes);
    if (decoded.kind === 'binary') return { status: 'binary', path: requested, size: bytes.length, reason: decoded.reason };
    return {
      status: 'ok',
      path: requested,
      text: decoded.text,
      size: bytes.length,
      truncated: decoded.truncated,
      blob: entry.oid,
      ...(resolvedFrom ? { resolvedFrom } : {}),
    };
  };

  type Found = { entry: FlatTreeEntry; path: string; resolvedFrom?: { link: string; target: string } };
  type NotFound = Exclude<ReadResult, { status: 'ok' } | { status: 'binary' } | { status: 'skipped' } | SourceFailure>;

  /** The regular file at `path`, following a symlink that stays inside the tree; or why there is none. */
  const fileAt = async (path: string, signal?: AbortSignal): Promise<Found | NotFound> => {
    const normal = normalisePath(path);
    if (!normal.ok) return { status: 'invalid-path', path, reason: normal.reason };
    const requested = normal.path;
    const entry = await entryAt(requested, signal);
    if (!entry) return { status: 'missing', path: requested };
    if (entry.kind === 'file') return { entry, path: requested };
    if (entry.kind !== 'symlink') return { status: 'not-a-file', path: requested, kind: entry.kind };

    // A link's blob is its target path; never hand that to a model as file content.
    const target = new TextDecoder().decode(await loadBlob(entry.oid, signal));
    // An absolute target must be refused, not re-rooted under the link's directory.
    const resolved = target.startsWith('/') ? normalisePath(target) : joinPath(parentOf(requested), target);
    if (!resolved.ok) return { status: 'unresolved-symlink', path: requested, target, reason: resolved.reason };
    const targetEntry = await entryAt(resolved.path, signal);
    if (!targetEntry) return { status: 'unresolved-symlink', path: requested, target, reason: 'target is not in the tree at this commit' };
    if (targetEntry.kind !== 'file') return { status: 'unresolved-symlink', path: requested, target, reason: `target is a ${targetEntry.kind}, not a regular file` };
    return { entry: targetEntry, path: requested, resolvedFrom: { link: requested, target: resolved.path } };
  };

  /** Runs `use` on the file at `path`; a loader's refusal or failure becomes the result, as for every read. */
  const withFile = async <R extends { status: string }>(path: string, signal: AbortSignal | undefined, use: (found: Found) => Promise<R>): Promise<R | NotFound | Extract<ReadResult, { status: 'skipped' }> | SourceFailure> => {
    const requested = normalisePath(path);
    const at = requested.ok ? requested.path : path;
    try {
      const found = await fileAt(path, signal);
      return 'entry' in found ? await use(found) : found;
    } catch (error) {
      if (error instanceof SkippedRead && !signal?.aborted) return { status: 'skipped', path: at, reason: error.message };
      return failure(at, error, signal);
    }
  };

  const list = async (dir: string, { signal }: { signal?: AbortSignal } = {}): Promise<ListResult> => {
    const normal = normalisePath(dir);
    if (!normal.ok) return { status: 'invalid-path', path: dir, reason: normal.reason };
    const path = normal.path;
    try {
      const listed = (await loadPartial(signal))?.children(path);
      if (listed) return { status: 'ok', path, entries: listed };
      if (path !== '') {
        const entry = await entryAt(path, signal);
        if (!entry) return { status: 'missing', path };
        if (entry.kind !== 'dir') return { status: 'not-a-directory', path };
      }
      return { status: 'ok', path, entries: await tree.children(path, signal) };
    } catch (error) {
      return failure(path, error, signal);
    }
  };

  return {
    repository: options.repository,
    commit: options.commit,
    uri: options.uri,

    list,

    async listed(dir, { signal } = {}): Promise<ListResult | undefined> {
      const normal = normalisePath(dir);
      if (!normal.ok) return { status: 'invalid-path', path: dir, reason: normal.reason };
      const path = normal.path;
      try {
        const known = await loadPartial(signal);
        const listed = known?.children(path);
        if (listed) return { status: 'ok', path, entries: listed };
        const entry = path === '' ? undefined : known?.entry(path);
        if (entry === null) return { status: 'missing', path };
        if (entry && entry.kind !== 'dir') return { status: 'not-a-directory', path };
      } catch (error) {
        return failure(path, error, signal);
      }
      return tree.holds(path) ? list(path, signal ? { signal } : {}) : undefined;
    },

    async read(path, readOptions): Promise<ReadResult> {
      const { signal } = readOptions;
      return withFile(path, signal, (found) => readBlob(found.entry, found.path, readOptions, found.resolvedFrom));
    },

    async readBytes(path, { maxBytes, signal }): Promise<BytesResult> {
      return withFile(path, signal, async (found) => {
        if (found.entry.size !== undefined && found.entry.size > maxBytes) return { status: 'too-large', path: found.path, size: found.entry.size };
        const bytes = await loadBlob(found.entry.oid, signal);
        if (bytes.length > maxBytes) return { status: 'too-large', path: found.path, size: bytes.length };
        return { status: 'ok', path: found.path, bytes, blob: found.entry.oid, ...(found.resolvedFrom ? { resolvedFrom: found.resolvedFrom } : {}) };
      });
    },

    async fileSize(path, { signal } = {}): Promise<number | undefined> {
      try {
        const found = await fileAt(path, signal);
        if (!('entry' in found)) return undefined;
        const { size, oid } = found.entry;
        return size ?? small.get(oid)?.byteLength ?? (await loader.blobSize?.(oid, signal));
      } catch {
        // Whatever went wrong, `read` meets it too and says what.
        return undefined;
      }
    },

    async commitInfo({ signal } = {}): Promise<CommitInfoResult> {
      try {
        signal?.throwIfAborted();
        if (!commitInfo) {
          // Shared by every caller, so it loads under the snapshot's signal. A read-ahead that
          // brought the commit's facts along saves a request for them.
          commitInfo = shared(lifetime, async () => {
            const known = await loadPartial(lifetime);
            if (known?.commit?.commit === options.commit) return known.commit;
            lifetime?.throwIfAborted();
            return loader.loadCommit(lifetime);
          });
          commitInfo.catch(() => (commitInfo = undefined));
        }
        return { status: 'ok', info: await untilAborted(commitInfo, signal) };
      } catch (error) {
        const { reason } = failure(options.commit, error, signal);
        return { status: 'failed', reason };
      }
    },
  };
}

/** The whole tree, loaded once (one request for the GitHub API, one fetch for a remote). */
function flatView(loader: TreeLoader, lifetime: AbortSignal | undefined): TreeView {
  let index: Promise<TreeIndex> | undefined;
  const loadIndex = (signal?: AbortSignal): Promise<TreeIndex> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!index) {
      index = shared(lifetime, () => loader.loadTree(lifetime)).then(buildIndex);
      // A failed load is not memoised: the next call may succeed.
      index.catch(() => (index = undefined));
    }
    return untilAborted(index, signal);
  };
  return {
    entry: async (path, signal) => (await loadIndex(signal)).byPath.get(path),
    children: async (dir, signal) => (await loadIndex(signal)).children.get(dir) ?? [],
    // Once the whole tree is on its way, every listing comes with it.
    holds: () => index !== undefined,
  };
}

/** Directory by directory, each read once, only along the paths asked about. */
function lazyView(loadDirectory: NonNullable<TreeLoader['loadDirectory']>, lifetime: AbortSignal | undefined): TreeView {
  const directories = new Map<string, Promise<TreeIndex | undefined>>();
  /** Shared by every caller, so it loads under the snapshot's signal. */
  const directory = (dir: string): Promise<TreeIndex | undefined> => {
    let loaded = directories.get(dir);
    if (!loaded) {
      loaded = (async () => {
        lifetime?.throwIfAborted();
        if (dir === '') return buildIndex(await loadDirectory(undefined, '', lifetime));
        const self = await entryOf(dir);
        return self?.kind === 'dir' ? buildIndex(await loadDirectory(self.oid, dir, lifetime)) : undefined;
      })();
      directories.set(dir, loaded);
      loaded.catch(() => directories.delete(dir));
    }
    return loaded;
  };
  const entryOf = async (path: string): Promise<FlatTreeEntry | undefined> => (await directory(parentOf(path)))?.byPath.get(path);
  return {
    holds: (dir) => directories.has(dir) && (dir === '' || directories.has(parentOf(dir))),
    entry: (path, signal) => (signal?.aborted ? Promise.reject(signal.reason) : untilAborted(entryOf(path), signal)),
    children: async (dir, signal) => {
      signal?.throwIfAborted();
      return (await untilAborted(directory(dir), signal))?.children.get(dir) ?? [];
    },
  };
}

/** Starts a load every caller shares, unless its lifetime is already over. */
function shared<T>(lifetime: AbortSignal | undefined, start: () => Promise<T>): Promise<T> {
  return lifetime?.aborted ? Promise.reject(lifetime.reason) : start();
}

function buildIndex(entries: FlatTreeEntry[]): TreeIndex {
  const byPath = new Map<string, FlatTreeEntry>();
  const children = new Map<string, TreeEntry[]>();
  for (const entry of entries) {
    byPath.set(entry.path, entry);
    const dir = parentOf(entry.path);
    const name = entry.path.slice(dir === '' ? 0 : dir.length + 1);
    const listed: TreeEntry = { name, path: entry.path, kind: entry.kind, oid: entry.oid, ...(entry.size === undefined ? {} : { size: entry.size }) };
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
