/**
 * @module providers/history/settings
 * The history provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

/** The most earlier tasks a setting may ask for: what a host asks its index for before settings are read. */
export const MAX_HISTORY_TASKS = 20;

/** What a run gets when no settings layer sets a field (see context/provider `defaults`); the schema's defaults are these. */
export const HISTORY_DEFAULTS = deepFreeze({ maxTasks: 5 });

export const HistoryConfigSchema = lazySchema(() => z.object({
  /** Earlier tasks shown (one store query either way). */
  maxTasks: z.number().int().min(1).max(MAX_HISTORY_TASKS).default(HISTORY_DEFAULTS.maxTasks),
}));

export function historySettings(): ProviderSettings<Built<typeof HistoryConfigSchema>> {
  return {
    name: 'history',
    category: 'memory',
    config: HistoryConfigSchema,
    defaults: HISTORY_DEFAULTS,
    limits: ['maxTasks'],
    budget: 3_000,
  };
}
