import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import type { ProviderSettings } from '../../src/context/provider.ts';
import { createSettingsRegistry } from '../../src/context/registry.ts';
import { settingsLayerSchema } from '../../src/context/settings/layer.ts';

/** Settings whose block schema records each time it is derived (a layer check calls `partial()`). */
function recorded(name: string, derived: string[]): ProviderSettings {
  const config = z.object({ limit: z.number().int().positive().default(3) });
  const partial = config.partial.bind(config);
  Object.assign(config, { partial: () => (derived.push(name), partial()) });
  return { name, category: 'memory', config, limits: ['limit'], budget: 1_000 };
}

describe('settingsLayerSchema', () => {
  it('derives a block schema only for the providers a layer names, once each', () => {
    const derived: string[] = [];
    const schema = settingsLayerSchema(createSettingsRegistry(['alpha', 'beta', 'gamma'].map((name) => recorded(name, derived))));

    expect(schema.parse({})).toEqual({});
    expect(derived).toEqual([]);

    expect(schema.parse({ beta: { limit: 2 } })).toEqual({ beta: { limit: 2 } });
    expect(schema.parse({ beta: { budget: 10 }, gamma: { enabled: false } })).toEqual({ beta: { budget: 10 }, gamma: { enabled: false } });
    expect(derived).toEqual(['beta', 'gamma']);
  });

  it('still names unknown providers and bad fields without deriving a block for them', () => {
    const derived: string[] = [];
    const schema = settingsLayerSchema(createSettingsRegistry(['alpha', 'beta'].map((name) => recorded(name, derived))));

    const unknown = schema.safeParse({ __proto__: { limit: 1 }, constructor: { limit: 1 }, delta: {} });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['constructor', 'unknown provider; known providers: alpha, beta'],
      ['delta', 'unknown provider; known providers: alpha, beta'],
    ]);
    const bad = schema.safeParse({ alpha: { limit: 0, extra: true } });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['alpha.limit', 'alpha.extra']);
    expect(derived).toEqual(['alpha']);
  });
});
