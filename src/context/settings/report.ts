/**
 * @module context/settings/report
 * What a turn says about its settings: what each layer contributed (or why it did not), the
 * effective settings of every selected provider with the layer that set each field, and
 * warnings. It is part of the assembled-turn JSON; the effective part is also digested.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

/** Lowest precedence first; the provider's own defaults lie below all of them. */
export const LAYERS = ['deployment', 'repository', 'task'] as const;
export type LayerName = (typeof LAYERS)[number];

export const REPOSITORY_SETTINGS_FILE = '.groundwork.yml';

/** How each layer is named in reasons and warnings. */
export const LAYER_LABELS: Readonly<Record<LayerName, string>> = { deployment: 'PROVIDER_CONFIG', repository: REPOSITORY_SETTINGS_FILE, task: 'task' };

export const LAYER_STATUSES = ['applied', 'none', 'not-read', 'ignored', 'failed'] as const;

export const LayerReportSchema = lazySchema(() => z.object({
  layer: z.enum(LAYERS),
  status: z.enum(LAYER_STATUSES),
  /** Where the settings came from, e.g. `.groundwork.yml@<commit>`. */
  source: z.string().optional(),
  reason: z.string().optional(),
}));
export type LayerReport = z.infer<typeof LayerReportSchema>;

export const EffectiveProviderSchema = lazySchema(() => z.object({
  name: z.string(),
  enabled: z.boolean(),
  budget: z.number().int().positive(),
  /** The provider's config after every layer, defaults included. */
  config: z.record(z.string(), z.unknown()),
  /** Field -> the layer whose value is in effect; fields at their default are absent. */
  set: z.record(z.string(), z.enum(LAYERS)),
}));
export type EffectiveProvider = z.infer<typeof EffectiveProviderSchema>;

export const SettingsReportSchema = lazySchema(() => z.object({
  layers: z.array(LayerReportSchema),
  providers: z.array(EffectiveProviderSchema),
  warnings: z.array(z.string()),
}));
export type SettingsReport = z.infer<typeof SettingsReportSchema>;

/** The part of the report the digest covers: what took effect, not which layer said it. */
export function effectiveSettings(report: SettingsReport): Array<Omit<EffectiveProvider, 'set'>> {
  return report.providers.map(({ name, enabled, budget, config }) => ({ name, enabled, budget, config }));
}
