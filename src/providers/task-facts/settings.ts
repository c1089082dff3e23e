/**
 * @module providers/task-facts/settings
 * The task-facts provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

export const TaskFactsConfigSchema = lazySchema(() => z.object({
  /** Changed files listed before `+N more`; GitHub pages 100 at a time. */
  maxFiles: z.number().int().min(1).max(3_000).default(100),
}));

export function taskFactsSettings(): ProviderSettings<Built<typeof TaskFactsConfigSchema>> {
  return {
    name: 'task-facts',
    category: 'system',
    config: TaskFactsConfigSchema.unwrap(),
    // Each 100 files is a request: only the host may allow more.
    limits: ['maxFiles'],
    budget: 3_000,
  };
}
