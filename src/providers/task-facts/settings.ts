/**
 * @module providers/task-facts/settings
 * The task-facts provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

/** What a run gets when no settings layer sets a field (see context/provider `defaults`); the schema's defaults are these. */
export const TASK_FACTS_DEFAULTS = deepFreeze({ maxFiles: 100 });

export const TaskFactsConfigSchema = lazySchema(() => z.object({
  /** Changed files listed before `+N more`; GitHub pages 100 at a time. */
  maxFiles: z.number().int().min(1).max(3_000).default(TASK_FACTS_DEFAULTS.maxFiles),
}));

export function taskFactsSettings(): ProviderSettings<Built<typeof TaskFactsConfigSchema>> {
  return {
    name: 'task-facts',
    category: 'system',
    config: TaskFactsConfigSchema,
    defaults: TASK_FACTS_DEFAULTS,
    // Each 100 files is a request: only the host may allow more.
    limits: ['maxFiles'],
    budget: 3_000,
  };
}
