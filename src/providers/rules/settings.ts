/**
 * @module providers/rules/settings
 * The rules provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import type { ProviderSettings } from '../../context/provider.ts';
import type { Built } from '../../lib/lazy-schema.ts';
import { RULES_DEFAULTS, RULES_LIMITS, RulesConfigSchema } from './config.ts';

export function rulesSettings(): ProviderSettings<Built<typeof RulesConfigSchema>> {
  return {
    name: 'rules',
    category: 'rules',
    config: RulesConfigSchema,
    defaults: RULES_DEFAULTS,
    limits: [...RULES_LIMITS],
    budget: 8_000,
  };
}
