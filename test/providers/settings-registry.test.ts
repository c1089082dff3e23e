// Settings are checked against the providers' declared settings (providers/settings), not the
// providers, so checking a configuration does not load the assembly code. The declarations must
// say what the providers that run say.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ProviderSettings } from '../../src/context/provider.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { defaultSettings } from '../../src/providers/settings.ts';

function declared(settings: ProviderSettings) {
  const { name, category, position, budget, limits, uncapped } = settings;
  return { name, category, position, budget, limits, uncapped, config: z.toJSONSchema(settings.config, { io: 'input' }) };
}

describe("the providers' declared settings", () => {
  it('are those of the default provider set, in its order: names, categories, budgets, limits and config schemas', () => {
    expect(defaultSettings().providers.map(declared)).toEqual(createDefaultRegistry().providers.map(declared));
  });
});
