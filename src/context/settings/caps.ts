/**
 * @module context/settings/caps
 * Caps are the host's. A provider's declared budget caps every layer; the deployment may lower
 * it, and then its value caps repository and task settings. The fields a provider declares as
 * `limits` (work and memory bounds) are capped at the host's value: the provider's default, or
 * the deployment's setting. Repository and task settings may lower a cap, never raise it.
 */
import type { ProviderSettings } from '../provider.ts';
import { configFor } from '../provider-config.ts';
import type { SettingsRegistry } from '../registry.ts';
import { splitBlock, type ProviderBlock, type SettingsLayer } from './layer.ts';

export interface CapProblem {
  /** `<provider>.<field>` */
  path: string;
  message: string;
}

/** Field -> the host's cap for one provider: `budget` and each of its `limits`. */
export function hostCaps(provider: ProviderSettings, deployment: ProviderBlock | undefined): Map<string, number> {
  const host = deployment ? splitBlock(deployment) : { config: {} };
  const caps = new Map<string, number>([['budget', Math.min(provider.budget, host.budget ?? provider.budget)]]);
  const parsed = configFor(provider, host.config);
  const values: Record<string, unknown> = parsed.success ? parsed.data : (configFor(provider, {}).data ?? {});
  for (const field of provider.limits ?? []) {
    const value = values[field];
    if (typeof value === 'number') caps.set(field, value);
  }
  return caps;
}

/** The deployment is the host, so only the provider's declared budget caps it. */
export function deploymentCapProblems(registry: SettingsRegistry, layer: SettingsLayer): CapProblem[] {
  return Object.entries(layer).flatMap(([name, block]) => {
    const provider = registry.get(name);
    const { budget } = splitBlock(block);
    if (!provider || budget === undefined || budget <= provider.budget) return [];
    return [{ path: `${name}.budget`, message: `${budget} is above the ${provider.budget} tokens provider ${name} declares` }];
  });
}

/** A repository or task layer with every capped field brought down to the host's cap, and what had to be. */
export function capLayer(registry: SettingsRegistry, deployment: SettingsLayer | undefined, layer: SettingsLayer): { layer: SettingsLayer; problems: CapProblem[] } {
  const problems: CapProblem[] = [];
  const capped: Record<string, ProviderBlock> = {};
  for (const [name, block] of Object.entries(layer)) {
    const provider = registry.get(name);
    if (!provider) continue;
    const caps = hostCaps(provider, deployment?.[name]);
    capped[name] = Object.fromEntries(
      Object.entries(block).map(([field, value]) => {
        const cap = caps.get(field);
        if (cap === undefined || typeof value !== 'number' || value <= cap) return [field, value];
        problems.push({ path: `${name}.${field}`, message: `${value} is above this host's cap of ${cap}` });
        return [field, cap];
      }),
    );
  }
  return { layer: capped, problems };
}
