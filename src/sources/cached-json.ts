/**
 * @module sources/cached-json
 * A read-through cache of zod-validated JSON values in a key-value store (Workers KV in the
 * Worker; anything with the same two methods elsewhere). Every value read back is parsed with
 * its schema: a corrupt, truncated or old-schema value counts as a miss and is overwritten.
 *
 * The cache is an optimisation, never a dependency: a store that throws behaves like a miss on
 * read and is ignored on write.
 */
import type { z } from 'zod';
import { cacheKey } from './cache-key.ts';
import type { KeyValueStore } from './key-value-store.ts';

export type { KeyValueStore } from './key-value-store.ts';

/** Workers KV's value limit. */
export const MAX_VALUE_BYTES = 25 * 1024 * 1024;

export interface CacheWriteOptions {
  /** Seconds until the store may evict the value. Values are immutable, so this only bounds storage. */
  expirationTtl?: number;
  /** Values whose JSON is larger than this (UTF-8 bytes) are returned but not stored. */
  maxValueBytes?: number;
}

export type CacheRead<T> = { hit: true; value: T } | { hit: false };

export async function readCachedJson<T>(store: KeyValueStore, key: string, schema: z.ZodType<T>): Promise<CacheRead<T>> {
  let text: string | null;
  try {
    text = await store.get(key, 'text');
  } catch {
    return { hit: false };
  }
  if (text === null) return { hit: false };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { hit: false };
  }
  const parsed = await schema.safeParseAsync(json);
  return parsed.success ? { hit: true, value: parsed.data } : { hit: false };
}

/** Returns whether the value was stored. */
export async function writeCachedJson(store: KeyValueStore, key: string, value: unknown, options: CacheWriteOptions = {}): Promise<boolean> {
  const json = JSON.stringify(value);
  const limit = Math.min(options.maxValueBytes ?? MAX_VALUE_BYTES, MAX_VALUE_BYTES);
  // Each UTF-16 unit is at most 3 UTF-8 bytes; only measure exactly when that bound is unsure.
  if (json.length > limit || (json.length * 3 > limit && new TextEncoder().encode(json).byteLength > limit)) return false;
  try {
    await store.put(key, json, options.expirationTtl === undefined ? undefined : { expirationTtl: options.expirationTtl });
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the cached value under `keyParts`, or computes, stores and returns it. Put everything
 * the value depends on into `keyParts` (repository, commit, config digest, schema version);
 * never a branch name, whose meaning changes.
 *
 * @example
 * const index = await cachedJson(env.CACHE, ['gw', 'skills', 'v1', snapshot.repository, snapshot.commit, configDigest],
 *   skillIndexSchema, () => buildSkillIndex(snapshot));
 */
export async function cachedJson<T>(
  store: KeyValueStore,
  keyParts: readonly string[],
  schema: z.ZodType<T>,
  compute: () => Promise<T>,
  options: CacheWriteOptions = {},
): Promise<T> {
  const key = await cacheKey(keyParts);
  const cached = await readCachedJson(store, key, schema);
  if (cached.hit) return cached.value;
  const value = await compute();
  await cacheWrite(store, key, () => value, options);
  return value;
}

/**
 * Stores what a reader has in hand already: in the background when the store takes deferred
 * writes (sources/write-behind), so the reader does not wait a round trip to the store for
 * something it does not need (on a cold assembly, every tree and file it read was such a write,
 * one after another, issue 56); else before returning, as a write of its own. `build` makes the
 * stored value when the write runs, so a deferred write's encoding (a read-ahead's blobs in
 * base64) is not on the reader's path either.
 */
export async function cacheWrite(store: KeyValueStore, key: string, build: () => unknown, options: CacheWriteOptions = {}): Promise<void> {
  if (store.defer) store.defer(() => writeCachedJson(store, key, build(), options));
  else await writeCachedJson(store, key, build(), options);
}

/**
 * Stores a value a reader built without asking the store (from what it held), unless a readable
 * value is stored already: the store is read first, so a value other readers share is written
 * once, not by every reader that could build it. Both steps go through `defer` when the store
 * takes deferred writes, so the reader waits for neither; else they run before this returns.
 */
export async function fillCache<T>(store: KeyValueStore, key: string, schema: z.ZodType<T>, value: T, options: CacheWriteOptions = {}): Promise<void> {
  const fill = async (): Promise<void> => {
    if (!(await readCachedJson(store, key, schema)).hit) await writeCachedJson(store, key, value, options);
  };
  if (store.defer) store.defer(fill);
  else await fill();
}
