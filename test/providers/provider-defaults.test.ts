// A run whose settings layers name no field of a provider gets the provider's declared
// `defaults` without its config schema being built (context/provider-config), and the registry
// checks a `lazySchema` config only when it is built. So what a run no longer checks is held
// here, for every built-in provider: its defaults are what its schema gives for `{}`, key for key
// and in order (reports print them), frozen, and its schema passes the registry's checks.
import { describe, expect, it } from 'vitest';
import { configFor, configSchema } from '../../src/context/provider-config.ts';
import type { ProviderSettings } from '../../src/context/provider.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import { defaultSettings } from '../../src/providers/settings.ts';

const builtIn: Array<[string, ProviderSettings]> = [
  ...createDefaultRegistry().providers.map((provider): [string, ProviderSettings] => [`provider ${provider.name}`, provider]),
  ...defaultSettings().providers.map((settings): [string, ProviderSettings] => [`settings of ${settings.name}`, settings]),
];

describe("every built-in provider's defaults", () => {
  it.each(builtIn)('%s: declared, what its schema gives when no field is set, in its order, and frozen', (_, provider) => {
    expect(provider.defaults, 'declares defaults').toBeDefined();
    const parsed = configSchema(provider).parse({});
    expect(provider.defaults).toStrictEqual(parsed);
    expect(JSON.stringify(provider.defaults)).toBe(JSON.stringify(parsed));
    expect(Object.isFrozen(provider.defaults)).toBe(true);
    for (const value of Object.values(provider.defaults ?? {})) if (typeof value === 'object' && value !== null) expect(Object.isFrozen(value)).toBe(true);
  });

  it.each(builtIn)('%s: its schema, once built, passes the checks the registry makes of a provider', (_, provider) => {
    expect(() => configSchema(provider)).not.toThrow();
  });

  it.each(builtIn)('%s: is what a run gets when its layers set nothing, and a set field is still parsed with the rest filled in', (_, provider) => {
    expect(configFor(provider, {})).toEqual({ success: true, data: provider.defaults });
    const fields = Object.entries(provider.defaults ?? {});
    const [field, value] = fields[0] ?? [];
    if (field === undefined) return;
    const set = configFor(provider, { [field]: value });
    expect(set.success && set.data).toStrictEqual(provider.defaults);
    expect(set.success && set.data).not.toBe(provider.defaults);
  });
});
