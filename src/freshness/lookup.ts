/**
 * @module freshness/lookup
 * The blob id of a path at a commit, from listings: one tree read serves every lookup, and no
 * file content is fetched. A symlink is resolved the way the providers read it (to the blob of
 * its target in the same tree), which costs reading the link.
 */
import { parentOf } from '../sources/paths.ts';
import type { Snapshot, TreeEntryKind } from '../sources/snapshot.ts';

export type Lookup =
  | { status: 'file'; blob: string }
  | { status: 'missing'; reason?: string }
  /** Something other than a file is there now (a directory, a submodule). */
  | { status: 'other'; kind: TreeEntryKind }
  | { status: 'failed'; reason: string };

export async function lookupBlob(snapshot: Snapshot, path: string, signal?: AbortSignal): Promise<Lookup> {
  const listing = await snapshot.list(parentOf(path), signal ? { signal } : {});
  if (listing.status === 'missing' || listing.status === 'not-a-directory') return { status: 'missing' };
  if (listing.status !== 'ok') return { status: 'failed', reason: listing.reason };
  const entry = listing.entries.find((candidate) => candidate.path === path);
  if (!entry) return { status: 'missing' };
  if (entry.kind === 'file' && entry.oid !== undefined) return { status: 'file', blob: entry.oid };
  if (entry.kind !== 'file' && entry.kind !== 'symlink') return { status: 'other', kind: entry.kind };
  // A symlink, or a source whose listings carry no object ids: read it to learn the blob.
  const read = await snapshot.read(path, { maxBytes: 1, ...(signal ? { signal } : {}) });
  switch (read.status) {
    case 'ok':
      return { status: 'file', blob: read.blob };
    case 'missing':
      return { status: 'missing' };
    case 'unresolved-symlink':
      return { status: 'missing', reason: `symlink to ${read.target} no longer resolves (${read.reason})` };
    case 'not-a-file':
      return { status: 'other', kind: read.kind };
    case 'binary':
      return { status: 'failed', reason: 'a binary file: its blob id was not reported' };
    case 'invalid-path':
    case 'skipped':
    case 'failed':
      return { status: 'failed', reason: read.reason };
  }
}
