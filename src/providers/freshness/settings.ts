/**
 * @module providers/freshness/settings
 * The freshness provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

/** What a run gets when no settings layer sets a field (see context/provider `defaults`); the schema's defaults are these. */
export const FRESHNESS_DEFAULTS = deepFreeze({ deadlineMs: 6_000, maxUnchanged: 20 });

export const FreshnessConfigSchema = lazySchema(() => z.object({
  /** The check's own deadline, inside the provider's timeout, so a slow host still gets a notice. */
  deadlineMs: z.number().int().min(100).max(60_000).default(FRESHNESS_DEFAULTS.deadlineMs),
  /** Unchanged sources listed in a notice; the rest are counted. */
  maxUnchanged: z.number().int().min(0).max(200).default(FRESHNESS_DEFAULTS.maxUnchanged),
}));

export function freshnessSettings(): ProviderSettings<Built<typeof FreshnessConfigSchema>> {
  return {
    name: 'freshness',
    category: 'system',
    config: FreshnessConfigSchema,
    defaults: FRESHNESS_DEFAULTS,
    // Its deadline keeps a hanging remote a notice rather than a timeout: a repository or task may lower it, never raise it.
    limits: ['deadlineMs', 'maxUnchanged'],
    budget: 6_000,
  };
}
