/**
 * @module context/registry
 * The provider set, checked and sorted once when the host starts, not on every assembly.
 */
import { compareProviders } from './order.ts';
import type { Provider } from './provider.ts';

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
    byName.set(provider.name, provider);
  }
  const sorted = Object.freeze([...providers].sort(compareProviders));
  return Object.freeze({ providers: sorted, get: (name: string) => byName.get(name) });
}
