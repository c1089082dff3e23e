/**
 * @module context/registry
 * The provider set, checked and sorted once when the host starts, not on every assembly; and the
 * same checks for a set of providers' settings alone (`createSettingsRegistry`), which is what
 * checking settings layers needs.
 */
import { compareProviders } from './order.ts';
import type { Provider, ProviderSettings } from './provider.ts';
import { HOST_FIELDS } from './settings/layer.ts';
import { numericFields } from './settings/numeric-fields.ts';

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

/**
 * Every number a repository or task may set is capped by the host: each numeric config field is a
 * limit (capped at the host's value) or declared safe with a reason, never neither, and a limit is
 * a number itself, since only a number can be brought down to a cap.
 */
function checkNumericFields(provider: ProviderSettings): void {
  const numeric = numericFields(provider.config);
  const limits: readonly string[] = provider.limits ?? [];
  const uncapped = new Map<string, string | undefined>(Object.entries(provider.uncapped ?? {}));
  for (const field of limits) {
    if (!numeric.some((found) => found.field === field && found.scalar)) throw new Error(`provider "${provider.name}": limit "${field}" is not a number the host can cap`);
    if (uncapped.has(field)) throw new Error(`provider "${provider.name}": "${field}" is both a limit and uncapped`);
  }
  for (const { field } of numeric) {
    if (!limits.includes(field) && !uncapped.get(field)?.trim()) {
      throw new Error(`provider "${provider.name}": numeric config field "${field}" is neither a limit (capped by the host) nor uncapped with a reason why that is safe`);
    }
  }
}

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
    const fields = Object.keys(provider.config.shape);
    const taken = HOST_FIELDS.find((field) => fields.includes(field));
    if (taken) throw new Error(`provider "${provider.name}": config field "${taken}" is a host setting every provider has`);
    const unknownLimit = (provider.limits ?? []).find((field) => !fields.includes(field));
    if (unknownLimit) throw new Error(`provider "${provider.name}": limit "${unknownLimit}" is not a config field`);
    checkNumericFields(provider);
    byName.set(provider.name, provider);
  }
  const sorted = Object.freeze([...providers].sort(compareProviders));
  return Object.freeze({ providers: sorted, get: (name: string) => byName.get(name) });
}
