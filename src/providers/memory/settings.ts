/**
 * @module providers/memory/settings
 * The memory provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

export const MemoryConfigSchema = lazySchema(() => z.object({
  /** Provenance checks still running after this are reported as not checked; the entries stay. */
  provenanceTimeoutMs: z.number().int().positive().max(30_000).default(4_000),
  /** Distinct cited revisions read per task (each may be a fetch of that commit). */
  maxCitedRevisions: z.number().int().nonnegative().max(64).default(8),
}));

export function memorySettings(): ProviderSettings<Built<typeof MemoryConfigSchema>> {
  return {
    name: 'memory',
    category: 'memory',
    config: MemoryConfigSchema.unwrap(),
    limits: ['provenanceTimeoutMs', 'maxCitedRevisions'],
    budget: 4_000,
  };
}
