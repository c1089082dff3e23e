/**
 * @module context/settings/layer
 * One layer of provider settings: the deployment's `PROVIDER_CONFIG`, a repository's
 * `.groundwork.yml`, or a task's `providers`. A layer names providers; each block sets some of
 * that provider's own config fields (checked by the provider's zod schema) plus two host fields
 * every provider has: `budget` (tokens) and `enabled: false` (turn it off: only the agent
 * configuration turns providers on). The parsed layer keeps only the fields it was given, so
 * layers merge field by field. Caps are not checked here but by `caps.ts`, which knows the host.
 *
 * @example
 * settingsLayerSchema(registry).parse({ skills: { roots: ['.opencode/skills/*'], budget: 3000 } })
 * // -> { skills: { roots: ['.opencode/skills/*'], budget: 3000 } }
 */
import * as z from 'zod';
import type { ProviderSettings } from '../provider.ts';
import { configSchema } from '../provider-config.ts';
import type { SettingsRegistry } from '../registry.ts';

/** The fields a block sets for one provider, as parsed. */
export type ProviderBlock = Readonly<Record<string, unknown>>;
/** Provider name -> block. */
export type SettingsLayer = Readonly<Record<string, ProviderBlock>>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function blockSchema(provider: ProviderSettings) {
  return configSchema(provider)
    .partial()
    .extend({
      budget: z.number().int().positive().optional(),
      enabled: z.literal(false, { error: 'can only be false: the agent configuration decides which providers run' }).optional(),
    })
    .strict();
}

/** Validates a layer against the providers of `registry`; issues name `<provider>.<field>`. */
export function settingsLayerSchema(registry: SettingsRegistry): z.ZodType<SettingsLayer, unknown> {
  // A provider's block schema is derived when a layer first names it: deriving them is most of
  // what checking a layer costs, and most layers (a CLI run's, a task's) name one or none.
  const blocks = new Map<string, ReturnType<typeof blockSchema>>();
  const blockOf = (name: string): ReturnType<typeof blockSchema> | undefined => {
    const provider = registry.get(name);
    if (!provider) return undefined;
    const built = blocks.get(name) ?? blockSchema(provider);
    blocks.set(name, built);
    return built;
  };
  const known = registry.providers.map((provider) => provider.name).join(', ');
  return z.unknown().transform((value, ctx): SettingsLayer => {
    if (!isRecord(value)) {
      ctx.addIssue({ code: 'custom', message: `must be an object of provider names (${known})` });
      return z.NEVER;
    }
    const layer: Record<string, ProviderBlock> = {};
    for (const name of Object.keys(value)) {
      const schema = blockOf(name);
      if (!schema) {
        ctx.addIssue({ code: 'custom', path: [name], message: `unknown provider; known providers: ${known}` });
        continue;
      }
      const block = value[name];
      const parsed = schema.safeParse(block);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          if (issue.code === 'unrecognized_keys') {
            const fields = Object.keys(schema.shape).join(', ');
            for (const key of issue.keys) ctx.addIssue({ code: 'custom', path: [name, ...issue.path, key], message: `unknown setting; ${name} takes ${fields}` });
          } else ctx.addIssue({ code: 'custom', path: [name, ...issue.path], message: issue.message });
        }
        continue;
      }
      // Only what the layer said: defaults belong to the provider, not to this layer.
      const data: Record<string, unknown> = parsed.data;
      layer[name] = Object.fromEntries(Object.keys(isRecord(block) ? block : {}).map((key) => [key, data[key]]));
    }
    return layer;
  });
}

/** A block split into the provider's config fields and the host fields. */
export function splitBlock(block: ProviderBlock): { config: Record<string, unknown>; budget?: number; enabled?: false } {
  const { budget, enabled, ...config } = block;
  return {
    config,
    ...(typeof budget === 'number' ? { budget } : {}),
    ...(enabled === false ? { enabled } : {}),
  };
}

const schemas = new WeakMap<SettingsRegistry, z.ZodType<SettingsLayer, unknown>>();

/** The layer schema of a registry, built once: a registry is frozen when it is created. */
export function layerSchemaOf(registry: SettingsRegistry): z.ZodType<SettingsLayer, unknown> {
  let schema = schemas.get(registry);
  if (!schema) schemas.set(registry, (schema = settingsLayerSchema(registry)));
  return schema;
}
