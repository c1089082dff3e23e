/**
 * @module context/provider-config
 * A provider's config as the host handles it: the schema, built when something must read it, and
 * the config one run gets. Most runs set no field of most providers (no settings layer names
 * them), and then a provider that declares its `defaults` gets those, without its schema being
 * built: a CLI hook run used to build some 260 zod objects for the settings of eight providers
 * to learn values that never change (issue 56). A layer that names a provider builds its schema,
 * and every field it sets is checked by it exactly as before.
 *
 * The declaration checks that read the schema (which fields exist, which hold numbers and
 * whether the host caps them) run when the schema is built: at `createRegistry` for a provider
 * that gives its schema itself, on first use for one that gives a `lazySchema`. The built-in
 * providers' declarations and defaults are held by test/providers/provider-defaults.test.ts.
 *
 * @example
 * const config = configFor(provider, setup.config ?? {});  // provider.defaults when nothing is set
 * if (!config.success) return gated('invalid', describeIssues(config.error, 'config'));
 */
import * as z from 'zod';
import { isPlainObject } from '../lib/plain-object.ts';
import type { ProviderSettings } from './provider.ts';
import { numericFields } from './settings/numeric-fields.ts';

/** Fields the host adds to every provider's settings block (context/settings/layer); a provider's own config may not use these names. */
export const HOST_FIELDS = ['budget', 'enabled'] as const;

/** Providers whose built schema passed `checkConfig`. */
const checked = new WeakSet<ProviderSettings>();

/** The provider's config schema, built (and its declaration checked) on first use. */
export function configSchema<S extends z.ZodObject>(provider: ProviderSettings<S>): S {
  const { config } = provider;
  const schema = config instanceof z.ZodLazy ? (config.unwrap() as S) : config;
  if (!checked.has(provider)) {
    checkConfig(provider, schema);
    checked.add(provider);
  }
  return schema;
}

/** Whether the schema is there already (not a `lazySchema` still to build). */
export function configBuilt(provider: ProviderSettings): boolean {
  return !(provider.config instanceof z.ZodLazy);
}

/**
 * The config a run gets from the fields its settings layers set: the provider's `defaults` when
 * they set none, the schema's parse otherwise (a failure is the provider's `invalid` outcome).
 * Only a plain object without a single own key counts as setting none: anything else is the
 * schema's to judge.
 */
export function configFor<S extends z.ZodObject>(provider: ProviderSettings<S>, fields: unknown): z.ZodSafeParseResult<z.output<S>> {
  if (provider.defaults !== undefined && setsNothing(fields)) return { success: true, data: provider.defaults };
  return configSchema(provider).safeParse(fields);
}

function setsNothing(fields: unknown): boolean {
  return isPlainObject(fields) && Reflect.ownKeys(fields).length === 0;
}

/**
 * Every number a repository or task may set is capped by the host: each numeric config field is a
 * limit (capped at the host's value) or declared safe with a reason, never neither, and a limit is
 * a number itself, since only a number can be brought down to a cap. No config field may take the
 * name of a host field every provider has. Declared defaults are what the schema gives when no
 * field is set, key for key and in its order (configs are JSON data; reports print them).
 */
function checkConfig(provider: ProviderSettings, schema: z.ZodObject): void {
  if (provider.defaults !== undefined && JSON.stringify(schema.safeParse({}).data) !== JSON.stringify(provider.defaults)) {
    throw new Error(`provider "${provider.name}": its defaults are not what its config schema gives when no field is set`);
  }
  const fields = Object.keys(schema.shape);
  const taken = HOST_FIELDS.find((field) => fields.includes(field));
  if (taken) throw new Error(`provider "${provider.name}": config field "${taken}" is a host setting every provider has`);
  const limits: readonly string[] = provider.limits ?? [];
  const unknownLimit = limits.find((field) => !fields.includes(field));
  if (unknownLimit) throw new Error(`provider "${provider.name}": limit "${unknownLimit}" is not a config field`);
  const numeric = numericFields(schema);
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
