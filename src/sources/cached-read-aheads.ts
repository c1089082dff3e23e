/**
 * @module sources/cached-read-aheads
 * A commit's read-aheads in the cache as one value: the plans read ahead at that commit (each by
 * its digest), the union of the parts of the tree they brought, and their blobs. Keyed by
 * repository + commit only, so a task that knows its commit before its plan (a pull request's
 * base, named by the webhook) can start reading the value while its plan is still being made
 * (the pull request's files listed): the store's round trip then overlaps GitHub's instead of
 * following it (issue 56). A plan the value names is served from it, with the same answers a
 * value per plan gave; any other plan is read ahead and added.
 *
 * One commit's parts of the tree never contradict each other (a commit is immutable), so their
 * union answers each plan's reads as that plan's own part would, and more. Writers of the same
 * commit race (last write wins), and Workers KV takes one write a second to a key (a write past
 * that is refused and dropped, as any failed cache write is): a plan either dropped is read ahead
 * again later, a miss, never a wrong answer. A value past {@link MAX_CACHED_PLANS} plans or {@link MAX_JOINED_BLOB_BYTES} of
 * blobs starts again with the plan just read.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { sha256Hex } from '../lib/sha256.ts';
import { cacheKey } from './cache-key.ts';
import { readCachedJson, type CacheRead, type KeyValueStore } from './cached-json.ts';
import { mergePartialTrees, PartialTreeSchema, type PartialTree } from './partial-tree.ts';
import type { ReadPlan } from './read-plan.ts';

/** Its own version, 4: before it, one value per plan (3) carried one plan's tree and blobs. */
export const READ_AHEADS_SCHEMA = 4;

/** Plans one commit's value names at most: a base many pull requests build on names one per shape of change. */
export const MAX_CACHED_PLANS = 16;

/**
 * The blobs several plans' read-aheads carry together, at most. A hit decodes and checks every
 * blob the value carries, other plans' too, so the union stays small; one plan alone may carry
 * more (sources/cached-loader's MAX_CARRIED_BLOB_BYTES), as a value per plan did.
 */
export const MAX_JOINED_BLOB_BYTES = 1024 * 1024;

export interface CachedBlob {
  oid: string;
  size: number;
  base64: string;
}

export const ReadAheadsSchema = lazySchema(() => z.object({
  schema: z.literal(READ_AHEADS_SCHEMA),
  /** The digests of the plans read ahead into `tree` (see {@link planDigest}). */
  plans: z.array(z.string().min(1)).max(MAX_CACHED_PLANS),
  tree: PartialTreeSchema,
  blobs: z.array(z.object({ oid: z.string().min(1), size: z.number().int().nonnegative(), base64: z.string() })),
}));
export type CachedReadAheads = z.output<typeof ReadAheadsSchema>;

export interface ReadAheadsScope {
  repository: string;
  commit: string;
}

/** A plan as the value names it: the SHA-256 of its JSON (plans are built in a fixed order). */
export function planDigest(plan: ReadPlan): Promise<string> {
  return sha256Hex(JSON.stringify(plan));
}

export function readAheadsKey(scope: ReadAheadsScope): Promise<string> {
  return cacheKey(['gw', 'partial', `v${READ_AHEADS_SCHEMA}`, scope.repository, scope.commit]);
}

export async function readCachedReadAheads(store: KeyValueStore, scope: ReadAheadsScope): Promise<CacheRead<CachedReadAheads>> {
  return readCachedJson(store, await readAheadsKey(scope), ReadAheadsSchema);
}

/**
 * The value with one more plan's read-ahead in it: its tree joined to the others and its blobs
 * added, while they stay within `maxJoinedBytes`. When the value is full (plans or blobs), the
 * plan's alone.
 */
export function withReadAhead(value: CachedReadAheads | undefined, digest: string, tree: PartialTree, blobs: readonly CachedBlob[], maxJoinedBytes = MAX_JOINED_BLOB_BYTES): CachedReadAheads {
  const alone: CachedReadAheads = { schema: READ_AHEADS_SCHEMA, plans: [digest], tree, blobs: [...blobs] };
  if (!value || value.plans.length >= MAX_CACHED_PLANS) return alone;
  const joined = new Map(value.blobs.map((blob) => [blob.oid, blob]));
  for (const blob of blobs) joined.set(blob.oid, blob);
  // base64 is 4/3 of the bytes; sizes are the bytes, the budget's unit.
  if ([...joined.values()].reduce((sum, blob) => sum + blob.size, 0) > maxJoinedBytes) return alone;
  return { schema: READ_AHEADS_SCHEMA, plans: [...value.plans.filter((plan) => plan !== digest), digest], tree: mergePartialTrees(value.tree, tree), blobs: [...joined.values()] };
}

/**
 * Reads begun for a task before its snapshots exist, each taken once by the snapshot at its
 * commit (sources/cached-loader): a later snapshot at the same commit reads the store again, as
 * the value may have grown meanwhile. A read asked for after its commit's snapshot was made is
 * not begun: that snapshot read the store itself.
 */
export interface ReadAheadsAhead {
  start(scope: ReadAheadsScope): void;
  take(scope: ReadAheadsScope): Promise<CacheRead<CachedReadAheads>> | undefined;
}

export function readAheadsAhead(store: KeyValueStore): ReadAheadsAhead {
  const begun = new Map<string, Promise<CacheRead<CachedReadAheads>>>();
  const made = new Set<string>();
  const id = (scope: ReadAheadsScope) => `${scope.repository}\0${scope.commit}`;
  return {
    start(scope) {
      if (!begun.has(id(scope)) && !made.has(id(scope))) begun.set(id(scope), readCachedReadAheads(store, scope));
    },
    take(scope) {
      made.add(id(scope));
      const read = begun.get(id(scope));
      begun.delete(id(scope));
      return read;
    },
  };
}
