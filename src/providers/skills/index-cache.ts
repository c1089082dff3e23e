/**
 * @module providers/skills/index-cache
 * The parsed index, cached in the task's key-value store under repository + commit + a digest
 * of the whole config and the index's scope (the chains it followed) + a schema version. A
 * commit never changes, so a hit is correct forever and reads nothing from the source, not even
 * the chains' listings. Selected bodies are not cached: they are read per task. Without a store
 * (e.g. the CLI), every run builds the index.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { sha256Hex } from '../../lib/sha256.ts';
import { cacheKey } from '../../sources/cache-key.ts';
import { cacheWrite, fillCache, readCachedJson } from '../../sources/cached-json.ts';
import type { KeyValueStore } from '../../sources/key-value-store.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { SkillsConfig } from './config.ts';
import { loadSkillIndex, type IndexScope, type LoadedIndex } from './load-index.ts';
import { SkillIndexSchema } from './skill-index.ts';

/** Bump when the index's shape or meaning changes; it is in every key and every value. */
export const SKILLS_INDEX_SCHEMA = 3;

/** Values are immutable; the expiry only stops indexes of old commits piling up. */
const CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;

const CachedIndexSchema = lazySchema(() => SkillIndexSchema.unwrap().extend({ schema: z.literal(SKILLS_INDEX_SCHEMA) }));

/** The configured roots alone: what an index without chains covers. */
export const CONFIGURED_ONLY: IndexScope = { configured: true };

export async function skillIndexKey(snapshot: Snapshot, config: SkillsConfig, scope: IndexScope = CONFIGURED_ONLY): Promise<string> {
  // Zod output follows the schema's key order, so equal configs serialise equally.
  const chain = scope.chain ? { targets: [...scope.chain.targets], skip: [...(scope.chain.skip ?? [])].sort() } : null;
  const digest = await sha256Hex(JSON.stringify([config, scope.configured, chain]));
  return cacheKey(['gw', 'skills-index', `v${SKILLS_INDEX_SCHEMA}`, snapshot.repository, snapshot.commit, digest]);
}

export async function cachedSkillIndex(store: KeyValueStore | undefined, snapshot: Snapshot, config: SkillsConfig, scope: IndexScope, signal: AbortSignal): Promise<LoadedIndex> {
  if (!store) return loadSkillIndex(snapshot, config, scope, signal);
  const key = await skillIndexKey(snapshot, config, scope);
  // What the snapshot holds (the read-ahead brought the listings and SKILL.md files a plan
  // names) builds the same index as the store would give, without waiting on the store: on a
  // new commit that wait was a miss on the first turn's path (issue 56), and a key no location
  // has cached is read from KV's central stores, its slowest read ("Requests which are not in
  // cache and need to access the central stores can experience higher latencies",
  // developers.cloudflare.com/kv/concepts/how-kv-works, read 2026-12-06).
  const held = await heldIndex(snapshot, config, scope, signal);
  if (held) {
    await fillCache(store, key, CachedIndexSchema, { schema: SKILLS_INDEX_SCHEMA, ...held.index }, { expirationTtl: CACHE_TTL_SECONDS });
    return held;
  }
  const cached = await readCachedJson(store, key, CachedIndexSchema);
  if (cached.hit) return { index: { skills: cached.value.skills, warnings: cached.value.warnings, roots: cached.value.roots }, files: new Map() };

  // A failed listing or read throws before this write, so an incomplete index is never pinned to a commit.
  const loaded = await loadSkillIndex(snapshot, config, scope, signal);
  await cacheWrite(store, key, () => ({ schema: SKILLS_INDEX_SCHEMA, ...loaded.index }), { expirationTtl: CACHE_TTL_SECONDS });
  return loaded;
}

/** The index built from the snapshot's held view alone; undefined when it needs a load (or the snapshot holds nothing). */
async function heldIndex(snapshot: Snapshot, config: SkillsConfig, scope: IndexScope, signal: AbortSignal): Promise<LoadedIndex | undefined> {
  const held = snapshot.held?.();
  if (!held) return undefined;
  try {
    return await loadSkillIndex(held, config, scope, signal);
  } catch (error) {
    // A listing or read the held view could not give throws (as an unreadable source does):
    // the store, then the source, answer instead. Our own deadline is no such case.
    if (signal.aborted) throw error;
    return undefined;
  }
}
