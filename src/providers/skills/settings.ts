/**
 * @module providers/skills/settings
 * The skills provider's settings (see context/provider `ProviderSettings`): checked against
 * settings layers without loading the provider.
 */
import type { ProviderSettings } from '../../context/provider.ts';
import type { Built } from '../../lib/lazy-schema.ts';
import { SKILLS_DEFAULTS, SkillsConfigSchema } from './config.ts';

export function skillsSettings(): ProviderSettings<Built<typeof SkillsConfigSchema>> {
  return {
    name: 'skills',
    category: 'skills',
    config: SkillsConfigSchema,
    defaults: SKILLS_DEFAULTS,
    limits: ['maxDepth', 'maxDirectories', 'maxSkillBytes', 'maxSelectedTokens', 'maxIndexTokens', 'maxChainDirectories', 'maxBundledFiles', 'maxBundledDepth'],
    uncapped: { minIndexTokens: 'tokens of the budget, which the host caps, and at most half of it' },
    budget: 16_000,
  };
}
