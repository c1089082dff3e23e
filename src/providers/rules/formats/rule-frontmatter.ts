/**
 * @module providers/rules/formats/rule-frontmatter
 * A rule file's frontmatter under the same limits as a skill's (the shared reader: no alias
 * bombs, failsafe scalars), plus a size cap, because a rule's frontmatter is a few keys and a
 * huge one is a mistake or an attack. A problem is a value naming the file, never a throw.
 */
import { parseFrontmatter, splitFrontmatter } from '../../frontmatter.ts';

export const MAX_FRONTMATTER_CHARS = 16_384;

export type RuleFrontmatter =
  | { ok: true; fields: Readonly<Record<string, unknown>>; body: string }
  | { ok: false; problem: string; body: string };

export function readRuleFrontmatter(text: string): RuleFrontmatter {
  const split = splitFrontmatter(text);
  if (split.kind === 'none') return { ok: true, fields: {}, body: text };
  if (split.kind === 'unclosed') return { ok: false, problem: 'frontmatter opened with --- never closes', body: text };
  if (split.yaml.length > MAX_FRONTMATTER_CHARS) return { ok: false, problem: `frontmatter is ${split.yaml.length} characters, over the ${MAX_FRONTMATTER_CHARS} a rule may have`, body: split.body };
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) return { ok: false, problem: parsed.reason, body: split.body };
  if (parsed.data === null || parsed.data === undefined) return { ok: true, fields: {}, body: split.body };
  if (typeof parsed.data !== 'object' || Array.isArray(parsed.data)) return { ok: false, problem: 'frontmatter is not a mapping of keys to values', body: split.body };
  return { ok: true, fields: parsed.data as Record<string, unknown>, body: split.body };
}

/** A string field; lists and mappings are not strings (undefined), an empty one is absent. */
export function stringField(fields: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = fields[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Globs as a string or a list of strings; undefined when absent or empty, `bad` for another shape. */
export function globsField(fields: Readonly<Record<string, unknown>>, key: string): string | string[] | undefined | 'bad' {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return value.length === 0 ? undefined : value;
  return 'bad';
}

/**
 * Scalars are read as written (failsafe), so `true` and `"true"` are the same text here; tools
 * that read YAML 1.2 would tell them apart (Cursor treats the quoted one as not set).
 */
export function booleanField(fields: Readonly<Record<string, unknown>>, key: string): boolean | undefined {
  const value = fields[key];
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}
