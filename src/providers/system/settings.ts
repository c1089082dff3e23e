/**
 * @module providers/system/settings
 * The system provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';
import { DEFAULT_PROJECT_FILES } from './project-files.ts';

/** What a run gets when no settings layer sets a field (see context/provider `defaults`); the schema's defaults are these. */
export const SYSTEM_DEFAULTS = deepFreeze({ maxNames: 60, projectFiles: [...DEFAULT_PROJECT_FILES], readTimeoutMs: 3_000 });

export const SystemConfigSchema = lazySchema(() => z.object({
  /** Lines per directory listing (and for the project files) before `+N more`. */
  maxNames: z.number().int().min(1).max(500).default(SYSTEM_DEFAULTS.maxNames),
  /** File names (with `*`) that count as project files, matched case-insensitively. */
  projectFiles: z
    .array(z.string().min(1).max(100).regex(/^[^/\\\0]+$/, 'a file name pattern, not a path'))
    .max(200)
    .default(SYSTEM_DEFAULTS.projectFiles),
  /** How long the commit date and the inventory may take before they are left out. */
  readTimeoutMs: z.number().int().positive().default(SYSTEM_DEFAULTS.readTimeoutMs),
}));

export function systemSettings(): ProviderSettings<Built<typeof SystemConfigSchema>> {
  return {
    name: 'system',
    category: 'system',
    config: SystemConfigSchema,
    defaults: SYSTEM_DEFAULTS,
    // A repository's or a task's settings may lower these, never raise them.
    limits: ['maxNames', 'readTimeoutMs'],
    budget: 2_000,
  };
}
