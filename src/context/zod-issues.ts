/**
 * @module context/zod-issues
 * One readable line per validation problem, naming the field: `entries[1].source.revision: must be a 40-hex commit`.
 */
import type { z } from 'zod';

export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues.map((issue) => `${fieldPath(root, issue.path)}: ${issue.message}`).join('; ');
}

export function fieldPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out === '' ? '(root)' : out;
}

/**
 * The items of `raw` that `schema` accepts, in order, and one line per item it refuses, naming
 * `label[index]` and the field; a line's issues are joined by commas, so a `; `-separated reason
 * counts items.
 */
export function validateEach<S extends z.ZodType>(schema: S, raw: readonly unknown[], label: string): { valid: z.output<S>[]; invalid: string[] } {
  const valid: z.output<S>[] = [];
  const invalid: string[] = [];
  raw.forEach((candidate, index) => {
    const parsed = schema.safeParse(candidate);
    if (parsed.success) valid.push(parsed.data);
    else invalid.push(parsed.error.issues.map((issue) => `${fieldPath(`${label}[${index}]`, issue.path)}: ${issue.message}`).join(', '));
  });
  return { valid, invalid };
}
