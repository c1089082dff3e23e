/**
 * @module providers/rules/lints/lint-input
 * What the lints read: the rule set's files, each with what every client does with it by itself
 * and its committed text, and the two answers only the tree can give (which globs match no file,
 * what each `@` reference names). The rules matrix (providers/rules/rules-matrix) gathers it from a
 * snapshot; the lints themselves read nothing else, so they are pure and testable on plain values.
 */
import type { ClientName } from '../../../context/client.ts';
import type { ClientLoad, FoundRuleFile } from '../../../context/client-load.ts';
import type { RuleVerdictKind } from '../../../context/rule-verdict.ts';

export type LoadsOf = Readonly<Partial<Record<ClientName, ClientLoad>>>;

export interface LintFile {
  path: string;
  /** The format that found it (`directory-file`, `cursor-rule`, `import`, …). */
  format: string;
  /** Groundwork's verdict and reason, as the rule set says it. */
  verdict: RuleVerdictKind;
  reason: string;
  blob?: string;
  /** What the client profiles were told (absent for a reference that was not followed, a file not read). */
  found?: FoundRuleFile;
  /** The file as committed, frontmatter included, when it was read as text. */
  text?: string;
  /** Each linted client's own load at the working directory the matrix is for (`LintInput.clients`; no other client's). */
  loads: LoadsOf;
  /** Each linted client's strongest load from any working directory the rule set holds (the file's own directory included): whether it ever loads it. */
  ever: LoadsOf;
}

/** A glob of a scoped rule, checked against every file of the commit. */
export interface GlobCheck {
  path: string;
  /** The frontmatter field it is in (`globs`, `paths`, `applyTo`). */
  field: string;
  glob: string;
  /** `true`: no file at the commit matches it; `false`: one does, or the bounded walk could not tell. */
  matchesNothing: boolean;
}

/** One `@` reference in a file, as the tree answers it. */
export type ReferenceCheck =
  | { importer: string; reference: string; status: 'ok'; target: string }
  | { importer: string; reference: string; status: 'unresolved'; target: string; why: string }
  | { importer: string; reference: string; status: 'outside'; why: string };

export interface LintInput {
  files: readonly LintFile[];
  /** The clients the repository uses (never `none`): whose silent failures count. */
  clients: readonly ClientName[];
  globs: readonly GlobCheck[];
  references: readonly ReferenceCheck[];
}
