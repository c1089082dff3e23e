/**
 * @module sources/snapshot
 * The contract every repository source implements: resolve a ref once, then read a tree that is
 * pinned to one commit. Providers depend on this file only, never on a concrete source.
 *
 * Failures a caller can act on are values (`missing`, `failed`, `binary`, ...), not exceptions;
 * a source throws only when the caller's AbortSignal fires.
 */
import type { ReadPlan } from './read-plan.ts';

/** A 40-hex commit id. Every read after `resolve` is pinned to one of these. */
export type CommitSha = string;

export const COMMIT_SHA = /^[0-9a-f]{40}$/;

export type TreeEntryKind = 'file' | 'dir' | 'symlink' | 'submodule';

export interface TreeEntry {
  /** Base name inside the listed directory. */
  name: string;
  /** Normalised path from the repository root, `/`-separated, no leading slash. */
  path: string;
  kind: TreeEntryKind;
  /** Blob size in bytes for files and symlinks (a symlink's blob is its target path). */
  size?: number;
  /**
   * Git object id: the blob of a file or symlink, the tree of a directory, the commit of a
   * submodule. A freshness check compares a file's blob at two commits from listings alone.
   */
  oid?: string;
}

export type ListResult =
  | { status: 'ok'; path: string; entries: TreeEntry[] }
  | { status: 'missing'; path: string }
  | { status: 'not-a-directory'; path: string }
  | { status: 'invalid-path'; path: string; reason: string }
  | SourceFailure;

/**
 * The source could not be read. `permanent`: asking again cannot help (no access, not found, over
 * a size cap); without it the failure may pass (network, 5xx, a deadline).
 */
export type SourceFailure = { status: 'failed'; path: string; reason: string; permanent?: true };

export type ReadResult =
  | {
      status: 'ok';
      path: string;
      text: string;
      /** Total size of the blob in bytes. */
      size: number;
      /** True when only the first `maxBytes` bytes were decoded. */
      truncated: boolean;
      /**
       * Git object id of the blob that was read (the target's, for a resolved symlink). Two reads
       * with the same blob id saw the same bytes, at any commit: freshness checks compare these.
       */
      blob: string;
      /** Set when `path` was a symlink resolved to a regular file in the same tree. */
      resolvedFrom?: { link: string; target: string };
    }
  | { status: 'missing'; path: string }
  | { status: 'not-a-file'; path: string; kind: TreeEntryKind }
  | { status: 'binary'; path: string; size: number; reason: 'nul-byte' | 'invalid-utf8' }
  /** A symlink that does not resolve to a regular file inside the tree at this commit. */
  | { status: 'unresolved-symlink'; path: string; target: string; reason: string }
  | { status: 'invalid-path'; path: string; reason: string }
  /** The source chose not to spend a request on an optional read (e.g. its API budget is low). */
  | { status: 'skipped'; path: string; reason: string }
  | SourceFailure;

/** A file's raw bytes (`readBytes`): what a digest is computed over and a binary file is served as. */
export type BytesResult =
  | { status: 'ok'; path: string; bytes: Uint8Array; blob: string; resolvedFrom?: { link: string; target: string } }
  | { status: 'too-large'; path: string; size: number }
  | Exclude<ReadResult, { status: 'ok' } | { status: 'binary' }>;

export interface ReadOptions {
  /** Read at most this many bytes of the blob; the result reports the total size. */
  maxBytes: number;
  signal?: AbortSignal;
  /** The caller can do without this file: a source short of API budget may answer `skipped` instead of spending a request. */
  optional?: boolean;
}

/** The commit object's facts (never its message, which is the author's text). */
export interface CommitInfo {
  commit: CommitSha;
  /** Root tree id. */
  tree: string;
  /** Parent commit ids; empty for a root commit. */
  parents: string[];
  /** Committer time, ISO 8601 in UTC without fractions: the date `git log` shows as the commit date. */
  committedAt: string;
  /** Author time, in the same form. */
  authoredAt: string;
}

export type CommitInfoResult = { status: 'ok'; info: CommitInfo } | { status: 'failed'; reason: string };

/** A repository tree at one commit. Immutable: the same call gives the same answer forever. */
export interface Snapshot {
  /** Stable identity of the repository, e.g. `github:owner/name` or a git URL; used in cache keys. */
  readonly repository: string;
  readonly commit: CommitSha;
  /** Human link or URI for a path at this commit, used as an entry's `source.uri`. */
  uri(path: string): string;
  list(dir: string, options?: { signal?: AbortSignal }): Promise<ListResult>;
  /**
   * The listing when the snapshot can give it from what it has loaded or is loading already (the
   * planned read-ahead, the whole tree); undefined when only another request could. A reader
   * that can do with part of the tree (a glob that one file proves alive) asks this first, so
   * what the task read ahead serves it without a round trip. Sources whose every listing is
   * cheap leave it out.
   */
  listed?(dir: string, options?: { signal?: AbortSignal }): Promise<ListResult | undefined>;
  read(path: string, options: ReadOptions): Promise<ReadResult>;
  /**
   * The blob's bytes, whatever they hold (text or not), resolving a symlink as `read` does; a blob
   * over `maxBytes` is `too-large` rather than cut, since a cut file has no honest digest. Sources
   * built on git objects offer it; a snapshot without it cannot serve files byte for byte.
   */
  readBytes?(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<BytesResult>;
  /**
   * The size of the file `read` would read at `path`, when the source can tell it without reading
   * the file (a git pack's object headers); undefined when it cannot, and the caller reads it.
   */
  fileSize?(path: string, options?: { signal?: AbortSignal }): Promise<number | undefined>;
  /** The pinned commit's own facts (dates, tree, parents); cached by commit like trees. */
  commitInfo(options?: { signal?: AbortSignal }): Promise<CommitInfoResult>;
  /**
   * The same snapshot answering only from what it holds (the read-ahead's listings and blobs,
   * what was read before, loads already on their way): anything else is `failed`, and no load
   * starts. A reader whose answer is cached by commit (the skills index) builds from this first,
   * so a cold task whose read-ahead brought every file needs no cache lookup to learn it has to
   * build. Sources that hold nothing leave it out.
   */
  held?(): Snapshot;
}

export type ResolveResult =
  | { status: 'ok'; commit: CommitSha }
  | { status: 'missing'; ref: string }
  | { status: 'failed'; ref: string; reason: string; permanent?: true };

export interface SnapshotOptions {
  /** What the task's readers will ask for; a source may read it ahead. */
  plan?: ReadPlan;
  /**
   * Bounds the loads a snapshot shares among its callers (the commit's tree, a fetched pack),
   * e.g. an assembly's deadline. Each call still waits under its own signal, so one caller
   * giving up never fails the others' reads.
   */
  signal?: AbortSignal;
}

/**
 * Where snapshots come from: resolve a ref to a commit once per task, then pin to it. A plan
 * says what the task's readers will ask of the snapshot; a source may fetch it ahead (the
 * GitHub source: in the same GraphQL query that resolves the ref) or ignore it.
 */
export interface RepositorySource {
  readonly repository: string;
  resolve(ref: string, options?: { signal?: AbortSignal; plan?: ReadPlan }): Promise<ResolveResult>;
  snapshot(commit: CommitSha, options?: SnapshotOptions): Snapshot;
  /**
   * The first failure of the repository itself that any read met so far (an object a commit
   * needs is missing, a pack is truncated), when the source can tell it from a failure of one
   * read; undefined when none was met. A host reports it as the repository being unreadable, not
   * as one provider's failure. Local sources tell; others leave it out.
   */
  unreadable?(): string | undefined;
}
