/**
 * @module cli/parse-options
 * Command-line options parsed strictly (unknown options and positionals are errors) and then
 * validated with a zod schema; an error names its option.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { z } from 'zod';

export type ParsedOptions<T> = { ok: true; options: T } | { ok: false; error: string };

export function parseOptions<S extends z.ZodType>(argv: readonly string[], spec: ParseArgsOptionsConfig, schema: S): ParsedOptions<z.output<S>> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: spec }));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, options: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `--${String(issue?.path[0])}: ${issue?.message ?? 'invalid value'}` };
}
