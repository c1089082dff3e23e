/**
 * @module providers/host/settings
 * The host provider's settings (see context/provider `ProviderSettings`): none of its own.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

/** What a run gets when no settings layer sets a field (see context/provider `defaults`); the schema's defaults are these. */
export const HOST_DEFAULTS = deepFreeze({});

export const HostConfigSchema = lazySchema(() => z.object({}));

export function hostSettings(): ProviderSettings<Built<typeof HostConfigSchema>> {
  return {
    name: 'host',
    category: 'system',
    config: HostConfigSchema,
    defaults: HOST_DEFAULTS,
    // HOST_FACT_LIMITS.maxTotalBody characters fit, with their labels.
    budget: 5_000,
  };
}
