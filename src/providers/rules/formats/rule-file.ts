/**
 * @module providers/rules/formats/rule-file
 * What every format module says about a file it found: where it is, its text without
 * frontmatter, and how its format decides when it applies. Deciding against the task's focus
 * (decide.ts) and rendering are shared, so the formats differ only in how they read a file.
 */
import type { ReadResult } from '../../../sources/snapshot.ts';
import type { RuleGlob } from '../globs.ts';

export const RULE_FORMATS = ['copilot-instructions', 'github-instructions', 'cursor-rule', 'cursorrules', 'claude-memory', 'claude-rule'] as const;
export type RuleFormat = (typeof RULE_FORMATS)[number];

export type Activation =
  /** Applies whatever the task touches; `why` says which rule of the format made it so. */
  | { kind: 'always'; why: string }
  /** Applies when a glob matches the working directory or a focus path. `field` is the frontmatter key. */
  | { kind: 'globs'; field: string; globs: RuleGlob[] }
  /** Listed by description in the rules index; the model asks for it by name. */
  | { kind: 'requested'; description: string }
  /** Never applied automatically (`why`: a manual rule, an excluded agent, unreadable frontmatter). */
  | { kind: 'never'; why: string };

export type ReadOk = Extract<ReadResult, { status: 'ok' }>;

export interface FoundRule {
  format: RuleFormat;
  path: string;
  /** The directory the rule belongs to: `''`, or the parent of a nested `.cursor/`. */
  root: string;
  /** How the model and the index call it: the file name without its extensions. */
  name: string;
  read: ReadOk;
  /** The text the model is given: the file without its frontmatter. */
  body: string;
  activation: Activation;
  warnings: string[];
}

/** `a/b/react.instructions.md` -> `react`, `x/api.mdc` -> `api`. */
export function ruleName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.replace(/\.instructions\.md$/i, '').replace(/\.(mdc|md)$/i, '') || base;
}
