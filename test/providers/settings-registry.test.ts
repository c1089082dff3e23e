// Settings are checked against the providers' declared settings (providers/settings), not the
// providers, so checking a configuration does not load the assembly code. The declarations must
// say what the providers that run say.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { configSchema } from '../../src/context/provider-config.ts';
import type { ProviderSettings } from '../../src/context/provider.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { defaultSettings } from '../../src/providers/settings.ts';

function declared(settings: ProviderSettings) {
  const { name, category, position, budget, limits, uncapped, defaults } = settings;
  return { name, category, position, budget, limits, uncapped, defaults, config: z.toJSONSchema(configSchema(settings), { io: 'input' }) };
}

describe("the providers' declared settings", () => {
  it('are those of the default provider set, in its order: names, categories, budgets, limits, defaults and config schemas', () => {
    expect(defaultSettings().providers.map(declared)).toEqual(createDefaultRegistry().providers.map(declared));
  });
});
