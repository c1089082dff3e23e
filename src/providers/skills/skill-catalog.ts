/**
 * @module providers/skills/skill-catalog
 * Every skill of a commit's index that the MCP skills extension can serve, with its manifest
 * (providers/skills/skill-manifest), in the index's order, and the warnings that go with it: the
 * index's own validation warnings and why any skill of it is not served. A host ranks it with
 * `rankCatalog` as the skills index ranks skills for a task (rank.ts): best match for the task's
 * words first, ties in name order.
 *
 * The catalog of a commit never changes, so it is cached in the task's key-value store like the
 * index (index-cache), under repository + commit + a digest of the config and scope.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { sha256Hex } from '../../lib/sha256.ts';
import { cacheKey } from '../../sources/cache-key.ts';
import { readCachedJson, writeCachedJson } from '../../sources/cached-json.ts';
import type { KeyValueStore } from '../../sources/key-value-store.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { SkillsConfig } from './config.ts';
import { cachedSkillIndex } from './index-cache.ts';
import type { IndexScope } from './load-index.ts';
import { rankSkills } from './rank.ts';
import { skillManifest, type SkillManifest } from './skill-manifest.ts';
import { SkillManifestSchema } from './skill-manifest-schema.ts';

export interface SkillCatalog {
  skills: SkillManifest[];
  warnings: string[];
}

/** Bump when a manifest's shape or meaning changes; it is in every key and every value. */
const CATALOG_SCHEMA = 1;
const CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;

const CachedCatalogSchema = lazySchema(() => z.object({ schema: z.literal(CATALOG_SCHEMA), skills: z.array(SkillManifestSchema), warnings: z.array(z.string()) }));

export async function skillCatalog(store: KeyValueStore | undefined, snapshot: Snapshot, config: SkillsConfig, scope: IndexScope, signal: AbortSignal): Promise<SkillCatalog> {
  const key = store ? await catalogKey(snapshot, config, scope) : undefined;
  if (store && key) {
    const cached = await readCachedJson(store, key, CachedCatalogSchema);
    if (cached.hit) return { skills: cached.value.skills, warnings: cached.value.warnings };
  }
  const { index } = await cachedSkillIndex(store, snapshot, config, scope, signal);
  const skills: SkillManifest[] = [];
  const warnings = [...index.warnings];
  // One skill at a time: each already reads its files in parallel, and a Worker's subrequests are counted.
  for (const skill of index.skills) {
    const made = await skillManifest(snapshot, skill, signal);
    if (made.ok) {
      skills.push(made.manifest);
      warnings.push(...made.manifest.warnings);
    } else warnings.push(made.reason);
  }
  // A failed read throws before this write, so an incomplete catalog is never pinned to a commit.
  if (store && key) await writeCachedJson(store, key, { schema: CATALOG_SCHEMA, skills, warnings }, { expirationTtl: CACHE_TTL_SECONDS });
  return { skills, warnings };
}

/** The catalog's skills ranked for a task's words (rank.ts): the index's ranking, whole entries kept. */
export function rankCatalog(catalog: SkillCatalog, query: readonly string[]): SkillManifest[] {
  const bySkillFile = new Map(catalog.skills.map((manifest) => [manifest.skillFile, manifest]));
  const ranked = rankSkills(
    catalog.skills.map((manifest) => ({ name: manifest.name, description: manifest.frontmatter.description.replace(/\s+/g, ' ').trim() || manifest.name, path: manifest.skillFile })),
    query,
  );
  return ranked.flatMap((skill) => bySkillFile.get(skill.path) ?? []);
}

async function catalogKey(snapshot: Snapshot, config: SkillsConfig, scope: IndexScope): Promise<string> {
  const chain = scope.chain ? { targets: [...scope.chain.targets], skip: [...(scope.chain.skip ?? [])].sort() } : null;
  const digest = await sha256Hex(JSON.stringify([config, scope.configured, chain]));
  return cacheKey(['gw', 'skills-catalog', `v${CATALOG_SCHEMA}`, snapshot.repository, snapshot.commit, digest]);
}
