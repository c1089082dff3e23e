/**
 * @module context/settings/resolve
 * Merges the settings layers into what each selected provider runs with. Precedence, field by
 * field: task over repository over deployment over the provider's defaults; except that caps
 * are the host's (see caps.ts), and that `enabled: false` from any layer turns a provider off
 * for good: a higher layer cannot turn it back on, and no layer adds a provider the agent does
 * not select.
 */
import { selects, type ProviderSelection } from '../provider-selection.ts';
import { configFor } from '../provider-config.ts';
import type { Registry } from '../registry.ts';
import type { ProviderSetup } from '../runner.ts';
import { capLayer } from './caps.ts';
import { splitBlock, type SettingsLayer } from './layer.ts';
import { LAYER_LABELS, LAYERS, type EffectiveProvider, type LayerName } from './report.ts';

export interface ResolveInput {
  registry: Registry;
  selection: ProviderSelection;
  layers: Partial<Record<LayerName, SettingsLayer>>;
}

export interface Resolved {
  /** Provider name -> what the runner gives it. */
  setups: Record<string, ProviderSetup>;
  providers: EffectiveProvider[];
  /** Values brought down to a cap, one line each. */
  warnings: string[];
}

/** Longest value shown in an outcome reason; repository text can be long. */
const MAX_SHOWN_VALUE = 160;

export function resolveSettings({ registry, selection, layers }: ResolveInput): Resolved {
  const warnings: string[] = [];
  const capped = { ...layers };
  for (const name of ['repository', 'task'] as const) {
    const layer = layers[name];
    if (!layer) continue;
    const result = capLayer(registry, layers.deployment, layer);
    capped[name] = result.layer;
    for (const problem of result.problems) warnings.push(`${LAYER_LABELS[name]}: ${problem.path}: ${problem.message}; the cap applies`);
  }

  const setups: Record<string, ProviderSetup> = {};
  const providers: EffectiveProvider[] = [];
  for (const provider of registry.providers) {
    if (!selects(selection, provider.name)) continue;
    const fields: Record<string, unknown> = {};
    const set: Record<string, LayerName> = {};
    let budget = provider.budget;
    let disabledBy: LayerName | undefined;
    for (const layer of LAYERS) {
      const block = capped[layer]?.[provider.name];
      if (!block) continue;
      const parts = splitBlock(block);
      for (const [field, value] of Object.entries(parts.config)) {
        fields[field] = value;
        set[field] = layer;
      }
      if (parts.budget !== undefined) {
        budget = parts.budget;
        set['budget'] = layer;
      }
      if (parts.enabled === false) {
        disabledBy ??= layer;
        set['enabled'] = disabledBy;
      }
    }
    const parsed = configFor(provider, fields);
    // An invalid merge is left for the runner, which reports it as the provider's `invalid` outcome.
    const config: Record<string, unknown> = parsed.success ? parsed.data : fields;
    providers.push({ name: provider.name, enabled: disabledBy === undefined, budget, config, set });
    const note = describeSet(set, { ...fields, budget });
    setups[provider.name] = {
      config: fields,
      budget,
      ...(disabledBy ? { disabled: `turned off by ${LAYER_LABELS[disabledBy]} (enabled: false)` } : {}),
      ...(note ? { note } : {}),
    };
  }
  return { setups, providers, warnings };
}

/** `settings: roots=[".opencode/skills/*"] (.groundwork.yml), budget=3000 (task)` */
function describeSet(set: Readonly<Record<string, LayerName>>, values: Readonly<Record<string, unknown>>): string | undefined {
  const parts = Object.entries(set)
    .filter(([field]) => field !== 'enabled')
    .map(([field, layer]) => `${field}=${shown(values[field])} (${LAYER_LABELS[layer]})`);
  return parts.length > 0 ? `settings: ${parts.join(', ')}` : undefined;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE - 1)}…` : text;
}
