/**
 * @module sources/git/ancestry
 * Git's ancestry suffixes on a local revision, as people type them: `HEAD~1`, `main^`, `v2^2`,
 * `abc123~3^2`. `~n` follows first parents n times; `^n` takes the n-th parent (`^` is `^1`,
 * `^0` the commit itself). The base is looked up as any ref; the walk is bounded.
 */
import { isValidRefName } from './ref-name.ts';

export interface Ancestry {
  base: string;
  /** Parent indices to take in order (1 = first parent); 0 stays on the commit. */
  steps: number[];
}

/** Steps one expression may take: `HEAD~100000` is a mistake, not a history to walk. */
export const MAX_ANCESTRY_STEPS = 10_000;

const SUFFIX = /(?:[~^]\d*)+$/;

/** Why `rev` is not a revision this reads (a ref name or sha, with ancestry suffixes), or undefined. */
export function revisionProblem(rev: string): string | undefined {
  const ancestry = parseAncestry(rev);
  if (ancestry && 'error' in ancestry) return ancestry.error;
  return isValidRefName(ancestry?.base ?? rev) ? undefined : `invalid ref name: ${JSON.stringify(rev)}`;
}

/** The base and steps of `rev`, or undefined when it has no suffix; an error for a bad one. */
export function parseAncestry(rev: string): Ancestry | { error: string } | undefined {
  const suffix = SUFFIX.exec(rev);
  if (!suffix) return undefined;
  const base = rev.slice(0, suffix.index);
  if (base === '') return { error: `${JSON.stringify(rev)} has no revision before ${suffix[0]}` };
  const steps: number[] = [];
  for (const [, op, digits] of suffix[0].matchAll(/([~^])(\d*)/g)) {
    if (digits !== undefined && digits.length > 5) return { error: `${JSON.stringify(rev)}: ${op}${digits} is more than ${MAX_ANCESTRY_STEPS} steps` };
    const n = digits === '' || digits === undefined ? 1 : Number(digits);
    if (op === '^') steps.push(n);
    else for (let i = 0; i < n; i++) steps.push(1);
    if (steps.length > MAX_ANCESTRY_STEPS) return { error: `${JSON.stringify(rev)} is more than ${MAX_ANCESTRY_STEPS} steps` };
  }
  return { base, steps };
}

/**
 * Walks `steps` from `commit`; `parents` reads a commit's parent ids. Undefined when the history
 * ends first (a root commit has no parent, a merge has no third).
 */
export function walkAncestry(commit: string, steps: readonly number[], parents: (commit: string) => readonly string[]): string | undefined {
  let current = commit;
  for (const step of steps) {
    if (step === 0) continue;
    const next = parents(current)[step - 1];
    if (next === undefined) return undefined;
    current = next;
  }
  return current;
}
