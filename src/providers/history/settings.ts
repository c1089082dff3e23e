/**
 * @module providers/history/settings
 * The history provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

/** The most earlier tasks a setting may ask for: what a host asks its index for before settings are read. */
export const MAX_HISTORY_TASKS = 20;

export const HistoryConfigSchema = lazySchema(() => z.object({
  /** Earlier tasks shown (one store query either way). */
  maxTasks: z.number().int().min(1).max(MAX_HISTORY_TASKS).default(5),
}));

export function historySettings(): ProviderSettings<Built<typeof HistoryConfigSchema>> {
  return {
    name: 'history',
    category: 'memory',
    config: HistoryConfigSchema.unwrap(),
    limits: ['maxTasks'],
    budget: 3_000,
  };
}
