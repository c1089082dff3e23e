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
 *
 * The loader's contract is tree-loader; how the tree is read (whole, or directory by directory) and
 * what a listing needs no load for is tree-view; blob reads, kept and joined, are blob-memo.
 */
import { decodeBlob } from './decode.ts';
import { indexPartialTree, isConsistent, type PartialIndex } from './partial-tree.ts';
import { joinPath, normalisePath, parentOf } from './paths.ts';
import { isEmptyPlan } from './read-plan.ts';
import { startShared, untilAborted } from '../lib/abortable.ts';
import { PermanentSourceError } from './permanent.ts';
import { createBlobMemo, type BlobMemo } from './blob-memo.ts';
import { SkippedRead, type FlatTreeEntry, type TreeLoader } from './tree-loader.ts';
import { heldListing, treeView, type TreeView } from './tree-view.ts';
import type { BytesResult, CommitInfo, CommitInfoResult, CommitSha, ListResult, ReadOptions, ReadResult, Snapshot, SnapshotOptions, SourceFailure, TreeEntry } from './snapshot.ts';

export { SkippedRead, type FlatTreeEntry, type TreeLoader } from './tree-loader.ts';

/** `plan`: what the readers will ask for, answered from `loadPartial` where it can. `signal`: bounds the shared loads. */
export interface TreeSnapshotOptions extends SnapshotOptions {
  repository: string;
  commit: CommitSha;
  uri: (path: string) => string;
  loader: TreeLoader;
}

export function createTreeSnapshot(options: TreeSnapshotOptions): Snapshot {
  const { loader, plan, signal: lifetime } = options;
  const tree = treeView(loader, lifetime);
  const blobs = createBlobMemo(loader);
  let commitInfo: Promise<CommitInfo> | undefined;
  let partial: Promise<PartialIndex | undefined> | undefined;

  /** The planned part of the tree, or undefined when there is no plan or it could not be read ahead. */
  const loadPartial = (signal?: AbortSignal): Promise<PartialIndex | undefined> => {
    if (!plan || isEmptyPlan(plan) || !loader.loadPartial) return Promise.resolve(undefined);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const load = loader.loadPartial.bind(loader, plan);
    // A failed read-ahead only sends readers to the whole tree, which says why if it fails too.
    partial ??= startShared(lifetime, () => load(lifetime)).then(
      (read) => (isConsistent(read) ? indexPartialTree(read) : undefined),
      (error: unknown) => (error instanceof PermanentSourceError ? Promise.reject(error) : undefined),
    );
    return untilAborted(partial, signal);
  };

  /** Every load a read may start. */
  const loading: Access = {
    partial: loadPartial,
    tree: (path, signal) => tree.entry(path, signal),
    children: (dir, signal) => tree.children(dir, signal),
    blob: (oid, signal, optional) => blobs.load(oid, signal, optional ? { optional } : undefined),
    size: (oid, signal) => loader.blobSize?.(oid, signal) ?? Promise.resolve(undefined),
  };
  /** Only what is loaded or on its way: anything else is NotHeld, which a read answers as `failed`. */
  const holding: Access = {
    partial: (signal) => (partial ? untilAborted(partial, signal) : Promise.resolve(undefined)),
    tree: (path, signal) => (tree.holds(parentOf(path)) ? tree.entry(path, signal) : Promise.reject(new NotHeld(path))),
    children: (dir, signal) => (tree.holds(dir) ? tree.children(dir, signal) : Promise.reject(new NotHeld(dir))),
    blob: (oid) => {
      const held = blobs.held(oid);
      return held ? Promise.resolve(held) : Promise.reject(new NotHeld(oid));
    },
    size: () => Promise.resolve(undefined),
  };

  const commitInfoOf = async (signal?: AbortSignal): Promise<CommitInfoResult> => {
    try {
      signal?.throwIfAborted();
      if (!commitInfo) {
        // Shared by every caller, so it loads under the snapshot's signal. A read-ahead that
        // brought the commit's facts along saves a request for them.
        commitInfo = startShared(lifetime, async () => {
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
  };
  const heldCommitInfo = async (signal?: AbortSignal): Promise<CommitInfoResult> => {
    let known: PartialIndex | undefined;
    try {
      known = await holding.partial(signal);
    } catch (error) {
      // An abort is the caller's (it propagates); a read-ahead that failed for good says why.
      return { status: 'failed', reason: failure(options.commit, error, signal).reason };
    }
    if (known?.commit?.commit === options.commit) return { status: 'ok', info: known.commit };
    return commitInfo ? commitInfoOf(signal) : { status: 'failed', reason: new NotHeld('the commit').message };
  };

  const identity = { repository: options.repository, commit: options.commit, uri: options.uri };
  // Made for the readers that ask for it (the skills index), not for every snapshot.
  let held: Snapshot | undefined;
  const heldView = (): Snapshot => (held ??= { ...identity, ...reader(holding, tree, blobs), commitInfo: ({ signal } = {}) => heldCommitInfo(signal) });
  return { ...identity, ...reader(loading, tree, blobs), commitInfo: ({ signal } = {}) => commitInfoOf(signal), held: heldView };
}

/** How a reader gets at the tree and its blobs: loading what it lacks, or only what is held. */
interface Access {
  partial(signal?: AbortSignal): Promise<PartialIndex | undefined>;
  /** The entry at a normalised path, from the tree (the read-ahead was asked first). */
  tree(path: string, signal?: AbortSignal): Promise<FlatTreeEntry | undefined>;
  children(dir: string, signal?: AbortSignal): Promise<TreeEntry[]>;
  blob(oid: string, signal?: AbortSignal, optional?: boolean): Promise<Uint8Array>;
  size(oid: string, signal?: AbortSignal): Promise<number | undefined>;
}

/** Thrown by a held view for what only a load could answer; the read answers `failed` with it. */
class NotHeld extends Error {
  override readonly name = 'NotHeld';
  constructor(what: string) {
    super(`${what || 'the root'} is not held by this snapshot yet (a held view starts no load)`);
  }
}

type Reads = Pick<Snapshot, 'list' | 'listed' | 'read' | 'readBytes' | 'fileSize'>;

/** Listing, confinement, symlink policy and decoding, over one way of getting at the objects. */
function reader(access: Access, tree: TreeView, blobs: BlobMemo): Reads {
  /** The entry at a normalised path, from the read-ahead when it knows (null there means absent). */
  const entryAt = async (path: string, signal?: AbortSignal): Promise<FlatTreeEntry | undefined> => {
    const known = (await access.partial(signal))?.entry(path);
    if (known !== undefined) return known ?? undefined;
    return access.tree(path, signal);
  };

  const readBlob = async (
    entry: FlatTreeEntry,
    requested: string,
    { maxBytes, signal, optional }: ReadOptions,
    resolvedFrom?: { link: string; target: string },
  ): Promise<ReadResult> => {
    const bytes = await access.blob(entry.oid, signal, optional);
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
    const target = new TextDecoder().decode(await access.blob(entry.oid, signal));
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
      const listed = (await access.partial(signal))?.children(path);
      if (listed) return { status: 'ok', path, entries: listed };
      if (path !== '') {
        const entry = await entryAt(path, signal);
        if (!entry) return { status: 'missing', path };
        if (entry.kind !== 'dir') return { status: 'not-a-directory', path };
      }
      return { status: 'ok', path, entries: await access.children(path, signal) };
    } catch (error) {
      return failure(path, error, signal);
    }
  };

  return {
    list,

    async listed(dir, { signal } = {}): Promise<ListResult | undefined> {
      const normal = normalisePath(dir);
      if (!normal.ok) return { status: 'invalid-path', path: dir, reason: normal.reason };
      const path = normal.path;
      let known: PartialIndex | undefined;
      try {
        known = await access.partial(signal);
      } catch (error) {
        return failure(path, error, signal);
      }
      const held = heldListing(known, tree, path);
      return held === 'view' ? list(path, signal ? { signal } : {}) : held;
    },

    async read(path, readOptions): Promise<ReadResult> {
      const { signal } = readOptions;
      return withFile(path, signal, (found) => readBlob(found.entry, found.path, readOptions, found.resolvedFrom));
    },

    async readBytes(path, { maxBytes, signal }): Promise<BytesResult> {
      return withFile(path, signal, async (found) => {
        if (found.entry.size !== undefined && found.entry.size > maxBytes) return { status: 'too-large', path: found.path, size: found.entry.size };
        const bytes = await access.blob(found.entry.oid, signal);
        if (bytes.length > maxBytes) return { status: 'too-large', path: found.path, size: bytes.length };
        return { status: 'ok', path: found.path, bytes, blob: found.entry.oid, ...(found.resolvedFrom ? { resolvedFrom: found.resolvedFrom } : {}) };
      });
    },

    async fileSize(path, { signal } = {}): Promise<number | undefined> {
      try {
        const found = await fileAt(path, signal);
        if (!('entry' in found)) return undefined;
        const { size, oid } = found.entry;
        return size ?? blobs.keptSize(oid) ?? (await access.size(oid, signal));
      } catch {
        // Whatever went wrong, `read` meets it too and says what.
        return undefined;
      }
    },
  };
}

function failure(path: string, error: unknown, signal?: AbortSignal): SourceFailure {
  // Abort is the caller's decision, not a property of the repository: let it propagate.
  if (signal?.aborted) throw signal.reason;
  const reason = error instanceof Error ? error.message : String(error);
  return { status: 'failed', path, reason, ...(error instanceof PermanentSourceError ? { permanent: true } : {}) };
}
