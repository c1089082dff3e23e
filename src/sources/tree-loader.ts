/**
 * @module sources/tree-loader
 * The contract a git backend implements for a tree snapshot (tree-snapshot): the flat recursive
 * tree of one commit and blobs by object id, with cheaper reads (one directory, a planned part of
 * the tree, a blob's size) where the backend has them.
 */
import type { PartialTree } from './partial-tree.ts';
import type { ReadPlan } from './read-plan.ts';
import type { CommitInfo, TreeEntryKind } from './snapshot.ts';

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
