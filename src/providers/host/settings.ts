/**
 * @module providers/host/settings
 * The host provider's settings (see context/provider `ProviderSettings`): none of its own.
 */
import * as z from 'zod';
import type { ProviderSettings } from '../../context/provider.ts';
import { type Built, lazySchema } from '../../lib/lazy-schema.ts';

export const HostConfigSchema = lazySchema(() => z.object({}));

export function hostSettings(): ProviderSettings<Built<typeof HostConfigSchema>> {
  return {
    name: 'host',
    category: 'system',
    config: HostConfigSchema.unwrap(),
    // HOST_FACT_LIMITS.maxTotalBody characters fit, with their labels.
    budget: 5_000,
  };
}
