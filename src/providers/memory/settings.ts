/**
 * @module providers/memory/settings
 * The memory provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

/** What a run gets when no settings layer sets a field (see context/provider `defaults`); the schema's defaults are these. */
export const MEMORY_DEFAULTS = deepFreeze({ provenanceTimeoutMs: 4_000, maxCitedRevisions: 8 });

export const MemoryConfigSchema = lazySchema(() => z.object({
  /** Provenance checks still running after this are reported as not checked; the entries stay. */
  provenanceTimeoutMs: z.number().int().positive().max(30_000).default(MEMORY_DEFAULTS.provenanceTimeoutMs),
  /** Distinct cited revisions read per task (each may be a fetch of that commit). */
  maxCitedRevisions: z.number().int().nonnegative().max(64).default(MEMORY_DEFAULTS.maxCitedRevisions),
}));

export function memorySettings(): ProviderSettings<Built<typeof MemoryConfigSchema>> {
  return {
    name: 'memory',
    category: 'memory',
    config: MemoryConfigSchema,
    defaults: MEMORY_DEFAULTS,
    limits: ['provenanceTimeoutMs', 'maxCitedRevisions'],
    budget: 4_000,
  };
}
