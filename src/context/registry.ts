/**
 * @module context/registry
 * The provider set, checked and sorted once when the host starts, not on every assembly; and the
 * same checks for a set of providers' settings alone (`createSettingsRegistry`), which is what
 * checking settings layers needs. What a provider's config schema declares (its fields, and that
 * the host caps every number) is checked here when the provider gives the schema itself, and when
 * it is built for one that gives a `lazySchema` (context/provider-config), so the built-in
 * providers' schemas are not built on every run to be checked (their checks are a test's).
 */
import { compareProviders } from './order.ts';
import type { Provider, ProviderSettings } from './provider.ts';
import { configBuilt, configSchema } from './provider-config.ts';

/** Providers' settings by name: what settings layers are checked and capped against (context/settings). */
export interface SettingsRegistry {
  /** In render order. */
  readonly providers: readonly ProviderSettings[];
  get(name: string): ProviderSettings | undefined;
}

export interface Registry extends SettingsRegistry {
  /** In render order. */
  readonly providers: readonly Provider[];
  get(name: string): Provider | undefined;
}

const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,62}$/;

export function createRegistry(providers: readonly Provider[]): Registry {
  for (const provider of providers) if (!(provider.timeoutMs > 0)) throw new Error(`provider "${provider.name}": timeoutMs must be positive`);
  return checkedSet(providers);
}

/** The settings of a provider set, checked as `createRegistry` checks them. */
export function createSettingsRegistry(settings: readonly ProviderSettings[]): SettingsRegistry {
  return checkedSet(settings);
}

function checkedSet<P extends ProviderSettings>(providers: readonly P[]): { providers: readonly P[]; get(name: string): P | undefined } {
  const byName = new Map<string, P>();
  for (const provider of providers) {
    if (!PROVIDER_NAME.test(provider.name)) throw new Error(`provider name "${provider.name}" must match ${PROVIDER_NAME}`);
    if (byName.has(provider.name)) throw new Error(`two providers are named "${provider.name}"`);
    if (!(provider.budget > 0)) throw new Error(`provider "${provider.name}": budget must be positive`);
    // A config schema given as a `lazySchema` is checked when it is built (context/provider-config).
    if (configBuilt(provider)) configSchema(provider);
    byName.set(provider.name, provider);
  }
  const sorted = Object.freeze([...providers].sort(compareProviders));
  return Object.freeze({ providers: sorted, get: (name: string) => byName.get(name) });
}
