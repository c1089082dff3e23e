/**
 * @module context/registry
 * The provider set, checked and sorted once when the host starts, not on every assembly.
 */
import { compareProviders } from './order.ts';
import type { Provider } from './provider.ts';
import { HOST_FIELDS } from './settings/layer.ts';

export interface Registry {
  /** In render order. */
  readonly providers: readonly Provider[];
  get(name: string): Provider | undefined;
}

const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,62}$/;

export function createRegistry(providers: readonly Provider[]): Registry {
  const byName = new Map<string, Provider>();
  for (const provider of providers) {
    if (!PROVIDER_NAME.test(provider.name)) throw new Error(`provider name "${provider.name}" must match ${PROVIDER_NAME}`);
    if (byName.has(provider.name)) throw new Error(`two providers are named "${provider.name}"`);
    if (!(provider.timeoutMs > 0)) throw new Error(`provider "${provider.name}": timeoutMs must be positive`);
    if (!(provider.budget > 0)) throw new Error(`provider "${provider.name}": budget must be positive`);
    const fields = Object.keys(provider.config.shape);
    const taken = HOST_FIELDS.find((field) => fields.includes(field));
    if (taken) throw new Error(`provider "${provider.name}": config field "${taken}" is a host setting every provider has`);
    const unknownLimit = (provider.limits ?? []).find((field) => !fields.includes(field));
    if (unknownLimit) throw new Error(`provider "${provider.name}": limit "${unknownLimit}" is not a config field`);
    byName.set(provider.name, provider);
  }
  const sorted = Object.freeze([...providers].sort(compareProviders));
  return Object.freeze({ providers: sorted, get: (name: string) => byName.get(name) });
}
