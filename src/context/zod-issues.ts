/**
 * @module context/zod-issues
 * One readable line per validation problem, naming the field: `entries[1].source.revision: must be a 40-hex commit`.
 */
import type { z } from 'zod';

/** `separator` joins the issues: `; ` between fields, `, ` within one item of a list (context/answer-checks). */
export function describeIssues(error: z.ZodError, root: string, separator = '; '): string {
  return error.issues.map((issue) => `${fieldPath(root, issue.path)}: ${issue.message}`).join(separator);
}

export function fieldPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out === '' ? '(root)' : out;
}
