// A provider's config schema may be a `lazySchema`, built only when something must read it; a run
// whose layers set none of its fields gets its declared defaults. What the schema checks, and
// what the registry checks of the schema, still happen whenever a field is set: only later.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { configFor, configSchema } from '../../src/context/provider-config.ts';
import { defineProvider, type Provider } from '../../src/context/provider.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { runProviders } from '../../src/context/runner.ts';
import { settingsLayerSchema } from '../../src/context/settings/layer.ts';
import { resolveSettings } from '../../src/context/settings/resolve.ts';
import { deepFreeze } from '../../src/lib/deep-freeze.ts';
import { lazySchema } from '../../src/lib/lazy-schema.ts';
import { grantCapabilities } from '../../src/context/capabilities.ts';
import { taskView } from '../support/task.ts';

const capabilities = grantCapabilities({ agent: { name: 'entry', capabilities: [] }, trusted: true, available: [] });

/** A provider whose config is a `lazySchema` that counts its builds. */
function counting(shape: () => z.ZodRawShape, extra: Partial<Provider> = {}) {
  let builds = 0;
  const config = lazySchema(() => {
    builds++;
    return z.object(shape());
  });
  const seen: unknown[] = [];
  const provider = defineProvider({
    name: 'counting',
    category: 'system',
    config,
    defaults: deepFreeze({ maxThings: 3, label: 'x' }),
    limits: ['maxThings'],
    requires: [],
    turns: 'first',
    timeoutMs: 1_000,
    budget: 100,
    async run({ config: given }) {
      seen.push(given);
      return [];
    },
    ...extra,
  });
  return { provider, seen, builds: () => builds };
}

const fields = () => ({ maxThings: z.number().int().min(1).max(10).default(3), label: z.string().min(1).default('x') });

describe("a provider's config schema given as a lazySchema", () => {
  it('is not built for a run whose layers set none of its fields: the run gets the declared defaults', async () => {
    const { provider, seen, builds } = counting(fields);
    const registry = createRegistry([provider]);
    const { setups } = resolveSettings({ registry, selection: 'all', layers: {} });
    const result = await runProviders({ registry, selection: 'all', task: taskView(), turn: 0, capabilities, setups, totalBudget: 1_000 });
    expect(result.outcomes.map((outcome) => outcome.outcome)).toEqual(['empty']);
    expect(seen).toEqual([{ maxThings: 3, label: 'x' }]);
    expect(builds()).toBe(0);
  });

  it('is built when a layer names the provider, and checks its fields as an eager schema does, naming the field', async () => {
    const { provider, seen, builds } = counting(fields);
    const registry = createRegistry([provider]);
    const refused = settingsLayerSchema(registry).safeParse({ counting: { maxThings: 'many' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['counting.maxThings']);
    expect(builds()).toBe(1);

    const { setups } = resolveSettings({ registry, selection: 'all', layers: { task: { counting: { maxThings: 0 } } } });
    const result = await runProviders({ registry, selection: 'all', task: taskView(), turn: 0, capabilities, setups, totalBudget: 1_000 });
    expect(result.outcomes[0]?.outcome).toBe('invalid');
    expect(result.outcomes[0]?.reason).toContain('config.maxThings: Too small');
    expect(seen).toEqual([]);
    expect(builds()).toBe(1);
  });

  it('leaves to the schema anything but a plain object without keys: inherited and hidden fields are read as zod reads them', () => {
    const { provider } = counting(fields);
    const inherited = configFor(provider, Object.create({ maxThings: 99 }));
    expect(inherited.success).toBe(false);
    const hidden = Object.defineProperty({}, 'maxThings', { value: 7, enumerable: false });
    expect(configFor(provider, hidden)).toEqual({ success: true, data: { maxThings: 7, label: 'x' } });
    expect(configFor(provider, 'nothing').success).toBe(false);
  });

  it('is checked by the registry when it is built: a number the host does not cap is refused then', () => {
    const { provider } = counting(() => ({ ...fields(), weight: z.number().default(1) }), { defaults: deepFreeze({ maxThings: 3, label: 'x', weight: 1 }) });
    const registry = createRegistry([provider]);
    const message = 'numeric config field "weight" is neither a limit';
    expect(() => configSchema(provider)).toThrow(message);
    expect(() => settingsLayerSchema(registry).safeParse({ counting: { weight: 2 } })).toThrow(message);
  });

  it('refuses defaults that are not what the schema gives, when the schema is built (and at once for an eager schema)', () => {
    const wrong = deepFreeze({ maxThings: 4, label: 'x' });
    const lazy = counting(fields, { defaults: wrong }).provider;
    expect(() => createRegistry([lazy])).not.toThrow();
    expect(() => configSchema(lazy)).toThrow('its defaults are not what its config schema gives');
    const reordered = counting(fields, { defaults: deepFreeze({ label: 'x', maxThings: 3 }) }).provider;
    expect(() => configSchema(reordered)).toThrow('its defaults are not what its config schema gives');
    const eager = { ...counting(fields).provider, config: z.object(fields()), defaults: wrong };
    expect(() => createRegistry([eager])).toThrow('its defaults are not what its config schema gives');
  });
});
