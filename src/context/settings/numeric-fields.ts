/**
 * @module context/settings/numeric-fields
 * Which fields of a provider's config hold numbers, read from its zod schema: a number field
 * (`maxDepth: z.number()…default(4)`) or a field with a number anywhere inside it (an array of
 * objects with a count). The registry uses it to refuse a provider that leaves one of them
 * neither capped by the host (`limits`) nor declared safe (`uncapped`), so a field added later
 * cannot escape the caps.
 */
import type { z } from 'zod';

export interface NumericField {
  field: string;
  /** The field itself is a number (with a default, optional, …), so `capLayer` can cap it. */
  scalar: boolean;
}

/** Defs whose one inner schema is the value itself. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

export function numericFields(config: z.ZodObject): NumericField[] {
  return Object.entries(config.shape).flatMap(([field, schema]) => {
    const scalar = isNumber(unwrap(schema));
    return scalar || holdsNumber(schema, new Set()) ? [{ field, scalar }] : [];
  });
}

type Def = Readonly<Record<string, unknown>> & { type?: unknown };

function defOf(schema: unknown): Def | undefined {
  if (typeof schema !== 'object' || schema === null || !('_zod' in schema)) return undefined;
  const internals: unknown = schema._zod;
  if (typeof internals !== 'object' || internals === null || !('def' in internals)) return undefined;
  const def: unknown = internals.def;
  return typeof def === 'object' && def !== null ? (def as Def) : undefined;
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let def = defOf(current); def && WRAPPERS.has(String(def.type)); def = defOf(current)) current = def['innerType'];
  return current;
}

function isNumber(schema: unknown): boolean {
  const type = defOf(schema)?.type;
  return type === 'number' || type === 'bigint';
}

/** Whether a number can appear anywhere in what `schema` accepts or produces. */
function holdsNumber(schema: unknown, seen: Set<unknown>): boolean {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return false;
  seen.add(schema);
  if (isNumber(schema)) return true;
  const children: unknown[] = [];
  for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'rest', 'catchall']) children.push(def[key]);
  for (const key of ['options', 'items']) if (Array.isArray(def[key])) children.push(...(def[key] as unknown[]));
  const shape = def['shape'];
  if (typeof shape === 'object' && shape !== null) children.push(...Object.values(shape));
  const getter = def['getter'];
  if (typeof getter === 'function') children.push((getter as () => unknown)());
  return children.some((child) => holdsNumber(child, seen));
}
