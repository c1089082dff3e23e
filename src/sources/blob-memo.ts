/**
 * @module sources/blob-memo
 * A snapshot's blob reads, by object id. Small blobs already read are kept: a symlink's target or
 * a copy another reader read before (a CLAUDE.md linked to the AGENTS.md beside it) costs no
 * second request. A read still under way is joined (each caller under its own signal) rather than
 * started again: which reader asks first depends on timing, and the count of requests must not.
 */
import { untilAborted } from '../lib/abortable.ts';
import type { TreeLoader } from './tree-loader.ts';

/** Blobs a snapshot keeps once read: rule files and links, not bundles. */
const MAX_KEPT_BLOB_BYTES = 64 * 1024;
const MAX_KEPT_BLOBS = 256;

export interface BlobMemo {
  /** The blob's bytes: kept, joined from a read under way, or read by the loader. */
  load(oid: string, signal?: AbortSignal, options?: { optional?: boolean }): Promise<Uint8Array>;
  /** The size of a blob kept from an earlier read, without a request; undefined when not kept. */
  keptSize(oid: string): number | undefined;
  /** The blob's bytes when they are in memory (kept here, or held by the loader), else undefined; no read. */
  held(oid: string): Uint8Array | undefined;
}

export function createBlobMemo(loader: Pick<TreeLoader, 'loadBlob' | 'heldBlob'>): BlobMemo {
  const small = new Map<string, Uint8Array>();
  const reading = new Map<string, Promise<Uint8Array>>();
  return {
    async load(oid, signal, options) {
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
      const read = loader.loadBlob(oid, signal, options);
      reading.set(oid, read);
      try {
        const bytes = await read;
        if (bytes.byteLength <= MAX_KEPT_BLOB_BYTES && small.size < MAX_KEPT_BLOBS) small.set(oid, bytes);
        return bytes;
      } finally {
        if (reading.get(oid) === read) reading.delete(oid);
      }
    },
    keptSize: (oid) => small.get(oid)?.byteLength,
    held: (oid) => small.get(oid) ?? loader.heldBlob?.(oid),
  };
}
