/**
 * @module sources/cached-loader
 * A TreeLoader in front of any other, caching in a key-value store what never changes: the flat
 * tree, the commit object's facts and the plans' read-aheads of a commit (keyed by repository +
 * commit; sources/cached-read-aheads) and blobs (keyed by repository + blob oid).
 * Keys never contain a branch name, so a hit is correct forever and costs no source read.
 *
 * Values are checked on the way out: trees against their schema, blobs against their size and,
 * for git object ids, against the oid itself. Anything else is a miss and gets rewritten.
 *
 * @example
 * const loader = createCachedLoader(createGitObjectLoader(store, commit), env.CACHE, { repository, commit });
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { toHex } from '../lib/sha256.ts';
import { cacheKey } from './cache-key.ts';
import { CommitInfoSchema } from './commit-info.ts';
import { cachedJson, cacheWrite, readCachedJson, type CacheRead, type CacheWriteOptions, type KeyValueStore } from './cached-json.ts';
import { planDigest, readAheadsKey, readCachedReadAheads, withReadAhead, type CachedBlob, type CachedReadAheads } from './cached-read-aheads.ts';
import { CachedTreeEntrySchema, type PartialTree } from './partial-tree.ts';
import type { FlatTreeEntry, TreeLoader } from './tree-loader.ts';

/**
 * Bump when the shape of a cached tree or blob changes; it is part of every key and value.
 * 2: read-ahead trees carry listed files' sizes and the commit's facts.
 */
export const SOURCE_CACHE_SCHEMA = 2;

/**
 * Larger blobs are served but not cached: rules and skill files are small, and a blob cached
 * as base64 JSON takes 4/3 of its size against KV's 25 MiB value limit.
 */
export const DEFAULT_MAX_CACHED_BLOB_BYTES = 1024 * 1024;

/** Immutable values need no expiry for correctness; this only stops unused ones piling up. */
export const DEFAULT_CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface CacheScope {
  repository: string;
  commit: string;
}

export interface CachedLoaderOptions {
  maxBlobBytes?: number;
  expirationTtl?: number;
  /** The commit's read-aheads, their read begun before the plan was made (sources/cached-read-aheads); else read when asked. */
  readAheads?: Promise<CacheRead<CachedReadAheads>>;
}

const treeSchema = lazySchema(() => z.object({
  schema: z.literal(SOURCE_CACHE_SCHEMA),
  entries: z.array(CachedTreeEntrySchema),
}));

const commitSchema = z.object({ schema: z.literal(SOURCE_CACHE_SCHEMA), info: CommitInfoSchema });

/** The blobs one plan's cached read-ahead carries: well under KV's value limit, as rules and skill files are. */
export const MAX_CARRIED_BLOB_BYTES = 4 * 1024 * 1024;

const blobSchema = lazySchema(() => z.object({
  schema: z.literal(SOURCE_CACHE_SCHEMA),
  size: z.number().int().nonnegative(),
  base64: z.string(),
}));

export function createCachedLoader(loader: TreeLoader, store: KeyValueStore, scope: CacheScope, options: CachedLoaderOptions = {}): TreeLoader {
  const version = `v${SOURCE_CACHE_SCHEMA}`;
  const write: CacheWriteOptions = { expirationTtl: options.expirationTtl ?? DEFAULT_CACHE_TTL_SECONDS };
  const maxBlobBytes = options.maxBlobBytes ?? DEFAULT_MAX_CACHED_BLOB_BYTES;

  const { loadPartial } = loader;
  /**
   * Blobs a cached read-ahead carried, by oid, checked against their oid as it is read: held in
   * memory from then on, as the read-ahead's own are (a snapshot's held view reads them).
   */
  const carried = new Map<string, Uint8Array>();
  const heldBlob = (oid: string): Uint8Array | undefined => loader.heldBlob?.(oid) ?? carried.get(oid);
  return {
    heldBlob,
    // The parts of a tree plans read ahead at this commit, in one value (sources/cached-read-aheads):
    // a plan it names is served from it, with the blobs it brought; another is read and added.
    ...(loadPartial
      ? {
          async loadPartial(plan, signal) {
            const [digest, cached] = await Promise.all([planDigest(plan), options.readAheads ?? readCachedReadAheads(store, scope)]);
            if (cached.hit && cached.value.plans.includes(digest)) {
              await Promise.all(
                cached.value.blobs.map(async ({ oid, size, base64 }) => {
                  if (loader.heldBlob?.(oid)) return;
                  const bytes = decodeBase64(base64);
                  if (bytes && bytes.byteLength === size && (await matchesOid(bytes, oid))) carried.set(oid, bytes);
                }),
              );
              return cached.value.tree;
            }
            const tree = await loadPartial.call(loader, plan, signal);
            const before = cached.hit ? cached.value : undefined;
            await cacheWrite(store, await readAheadsKey(scope), () => withReadAhead(before, digest, tree, heldBlobs(loader, tree, Math.min(maxBlobBytes, MAX_CARRIED_BLOB_BYTES))), write);
            return tree;
          },
        }
      : {}),

    async loadTree(signal): Promise<FlatTreeEntry[]> {
      const keyParts = ['gw', 'tree', version, scope.repository, scope.commit];
      const compute = async () => ({ schema: SOURCE_CACHE_SCHEMA, entries: await loader.loadTree(signal) }) as const;
      return (await cachedJson(store, keyParts, treeSchema, compute, write)).entries;
    },

    async loadCommit(signal) {
      const keyParts = ['gw', 'commit', version, scope.repository, scope.commit];
      const compute = async () => ({ schema: SOURCE_CACHE_SCHEMA, info: await loader.loadCommit(signal) }) as const;
      return (await cachedJson(store, keyParts, commitSchema, compute, write)).info;
    },

    async loadBlob(oid, signal, blobOptions): Promise<Uint8Array> {
      const key = await cacheKey(['gw', 'blob', version, scope.repository, oid]);
      // A blob the loader holds (a read-ahead's, hash-checked on arrival) is not looked up in the
      // store: on a cold turn every one was a miss, a round trip each before the providers went on.
      // It is still written, for the next reader of the cached read-ahead, which holds no blobs.
      const held = loader.heldBlob?.(oid);
      // A blob the cached read-ahead carried (checked as a cached blob is): no read at all.
      const brought = held ? undefined : carried.get(oid);
      if (brought) return brought;
      if (!held) {
        const cached = await readCachedJson(store, key, blobSchema);
        if (cached.hit) {
          const bytes = decodeBase64(cached.value.base64);
          if (bytes && bytes.byteLength === cached.value.size && (await matchesOid(bytes, oid))) return bytes;
        }
      }
      const bytes = held ?? (await loader.loadBlob(oid, signal, blobOptions));
      if (bytes.byteLength <= maxBlobBytes) {
        await cacheWrite(store, key, () => ({ schema: SOURCE_CACHE_SCHEMA, size: bytes.byteLength, base64: encodeBase64(bytes) }), write);
      }
      return bytes;
    },
  };
}

/** The blobs of a read-ahead's files the loader holds, in tree order, until `maxBytes` in all. */
function heldBlobs(loader: TreeLoader, tree: PartialTree, maxBytes: number): CachedBlob[] {
  if (!loader.heldBlob) return [];
  const blobs = new Map<string, CachedBlob>();
  let bytes = 0;
  for (const { kind, oid } of [...tree.dirs.flatMap((dir) => dir.entries), ...tree.entries]) {
    const held = kind === 'dir' || blobs.has(oid) ? undefined : loader.heldBlob(oid);
    if (!held || (bytes += held.byteLength) > maxBytes) continue;
    blobs.set(oid, { oid, size: held.byteLength, base64: encodeBase64(held) });
  }
  return [...blobs.values()];
}

/**
 * A git blob id is the hash of `blob <size>\0<content>` (SHA-1, or SHA-256 in sha256
 * repositories). Ids of other shapes cannot be checked and rely on the size check alone.
 */
export async function matchesOid(bytes: Uint8Array, oid: string): Promise<boolean> {
  const algorithm = /^[0-9a-f]{40}$/.test(oid) ? 'SHA-1' : /^[0-9a-f]{64}$/.test(oid) ? 'SHA-256' : undefined;
  return algorithm ? (await gitBlobId(bytes, algorithm)) === oid : true;
}

/** The id git gives `bytes` as a blob: the hash of `blob <size>\0<content>`. */
export async function gitBlobId(bytes: Uint8Array, algorithm: 'SHA-1' | 'SHA-256'): Promise<string> {
  const header = new TextEncoder().encode(`blob ${bytes.byteLength}\0`);
  const object = new Uint8Array(header.byteLength + bytes.byteLength);
  object.set(header);
  object.set(bytes, header.byteLength);
  return toHex(new Uint8Array(await crypto.subtle.digest(algorithm, object)));
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: spreading a whole megabyte into one call would overflow the argument stack.
  for (let offset = 0; offset < bytes.byteLength; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

function decodeBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
