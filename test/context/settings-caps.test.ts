/**
 * Every number a repository (`.groundwork.yml`) or a task (`providers`) may set is capped by the
 * host, for every provider of the default registry: a limit is brought down to the host's value
 * with a warning, and a provider whose numeric field is neither a limit nor declared safe is
 * refused when the registry is built, so a field added later cannot escape.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineProvider, type Provider } from '../../src/context/provider.ts';
import { configSchema } from '../../src/context/provider-config.ts';
import { createRegistry } from '../../src/context/registry.ts';
import { hostCaps } from '../../src/context/settings/caps.ts';
import { numericFields } from '../../src/context/settings/numeric-fields.ts';
import { resolveSettings } from '../../src/context/settings/resolve.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';

const registry = createDefaultRegistry();

/** A provider's config as it takes effect, defaults filled in. */
const effective = (resolved: ReturnType<typeof resolveSettings>, name: string) => resolved.providers.find((provider) => provider.name === name)?.config ?? {};

/** A value above `cap` the field's own schema accepts, or undefined when the schema stops at the cap. */
function above(provider: Provider, field: string, cap: number): number | undefined {
  const schema = configSchema(provider).shape[field];
  for (const value of [cap + 1, cap * 2, cap * 10]) if (schema?.safeParse(value).success) return value;
  return undefined;
}

describe('caps on every numeric setting', () => {
  it('holds for every provider of the default registry: each numeric field is a limit or declared safe with a reason', () => {
    const undeclared = registry.providers.flatMap((provider) =>
      numericFields(configSchema(provider))
        .filter(({ field }) => !(provider.limits ?? []).includes(field) && !Object.entries(provider.uncapped ?? {}).some(([name, why]) => name === field && why?.trim()))
        .map(({ field }) => `${provider.name}.${field}`),
    );
    expect(undeclared).toEqual([]);
    expect(registry.providers.flatMap((provider) => provider.limits ?? []).length).toBeGreaterThan(0);
  });

  const limits = registry.providers.flatMap((provider) => (provider.limits ?? []).map((field) => [provider.name, field] as const));
  it.each(limits)("brings %s.%s from a repository or a task down to the host's value, with a warning, and lets them lower it", (name, field) => {
    const provider = registry.get(name);
    if (!provider) throw new Error(name);
    const cap = hostCaps(provider, undefined).get(field) ?? NaN;
    expect(cap, `${name}.${field} has a host value`).toBeGreaterThan(0);
    const over = above(provider, field, cap);
    for (const layer of ['repository', 'task'] as const) {
      if (over !== undefined) {
        const raised = resolveSettings({ registry, selection: 'all', layers: { [layer]: { [name]: { [field]: over } } } });
        expect(effective(raised, name)[field], `${layer} ${name}.${field}`).toBe(cap);
        expect(raised.warnings.join('\n')).toContain(`${name}.${field}: ${over} is above this host's cap of ${cap}`);
      }
      const lowered = resolveSettings({ registry, selection: 'all', layers: { [layer]: { [name]: { [field]: cap - 1 } } } });
      if (configSchema(provider).shape[field]?.safeParse(cap - 1).success) expect(effective(lowered, name)[field]).toBe(cap - 1);
    }
    // The deployment is the host: what it sets is the cap for the layers above it.
    const deployment = { [name]: { [field]: cap - 1 } };
    if (configSchema(provider).shape[field]?.safeParse(cap - 1).success) {
      const capped = resolveSettings({ registry, selection: 'all', layers: { deployment, repository: { [name]: { [field]: cap } } } });
      expect(effective(capped, name)[field]).toBe(cap - 1);
    }
  });

  it('keeps a repository from raising the freshness check’s own deadline, so a hanging remote is still a notice, not a timeout', () => {
    const raised = resolveSettings({ registry, selection: 'all', layers: { repository: { freshness: { deadlineMs: 60_000, maxUnchanged: 200 } } } });
    expect(effective(raised, 'freshness')).toEqual({ deadlineMs: 6_000, maxUnchanged: 20 });
    expect(raised.warnings).toEqual([
      '.groundwork.yml: freshness.deadlineMs: 60000 is above this host\'s cap of 6000; the cap applies',
      '.groundwork.yml: freshness.maxUnchanged: 200 is above this host\'s cap of 20; the cap applies',
    ]);
  });
});

describe('a provider whose numbers could escape the caps', () => {
  const provider = (config: z.ZodObject, extra: Partial<Provider> = {}) =>
    defineProvider({ name: 'counting', category: 'system', config, requires: [], turns: 'first', timeoutMs: 1_000, budget: 100, run: async () => [], ...extra });

  it.each([
    ['a number that is neither a limit nor uncapped', z.object({ maxThings: z.number().default(3) }), {}, 'numeric config field "maxThings" is neither a limit'],
    ['a number inside a list', z.object({ rules: z.array(z.object({ weight: z.number() })).default([]) }), {}, 'numeric config field "rules" is neither a limit'],
    ['a number behind a transform', z.object({ size: z.string().transform(Number).pipe(z.number()).optional() }), {}, 'numeric config field "size" is neither a limit'],
    ['a limit that holds numbers inside it', z.object({ rules: z.array(z.number()).default([]) }), { limits: ['rules'] }, 'limit "rules" is not a number the host can cap'],
    ['an uncapped field without a reason', z.object({ maxThings: z.number().default(3) }), { uncapped: { maxThings: ' ' } }, 'numeric config field "maxThings" is neither a limit'],
    ['a field both capped and uncapped', z.object({ maxThings: z.number().default(3) }), { limits: ['maxThings'], uncapped: { maxThings: 'why not' } }, '"maxThings" is both a limit and uncapped'],
  ])('is refused when the registry is built: %s', (_, config, extra, message) => {
    expect(() => createRegistry([provider(config, extra as Partial<Provider>)])).toThrow(message);
  });

  it('is accepted once every number is a limit or has its reason', () => {
    const config = z.object({ maxThings: z.number().default(3), share: z.number().default(10), label: z.string().default('x') });
    expect(() => createRegistry([provider(config, { limits: ['maxThings'], uncapped: { share: 'a share of the budget, which is capped' } } as Partial<Provider>)])).not.toThrow();
  });
});
