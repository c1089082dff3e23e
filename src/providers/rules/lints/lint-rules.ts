/**
 * @module providers/rules/lints/lint-rules
 * Every lint of a rule set: what the clients of a repository would drop without a word. One pure
 * function over what the rules matrix gathered (lint-input), so the CLI's `groundwork rules`, the
 * check run's rules report and MCP `rules_for_paths` give the same lints for the same commit.
 * Each lint is its own module; this one runs them all and orders the answer by file, line and code,
 * never by the order the lints ran in.
 *
 * @example
 * const lints = lintRules({ files, clients: ['codex', 'claude-code'], globs, references });
 * lints.filter((lint) => lint.severity === 'error'); // what fails CI
 */
import { boundLint, LINT_CODES, type RuleLint } from '../../../context/rule-lint.ts';
import { deadGlobLints } from './dead-globs.ts';
import { disagreementLints } from './disagreement.ts';
import { frontmatterLints } from './frontmatter.ts';
import { importLints } from './import-lints.ts';
import { sizeCapLints } from './size-cap.ts';
import { unloadedLints } from './unloaded.ts';
import type { LintInput } from './lint-input.ts';

export type { LintFile, LintInput, GlobCheck, ReferenceCheck } from './lint-input.ts';

const LINTS: ReadonlyArray<(input: LintInput) => RuleLint[]> = [frontmatterLints, deadGlobLints, importLints, sizeCapLints, unloadedLints, disagreementLints];

export function lintRules(input: LintInput): RuleLint[] {
  const all = LINTS.flatMap((lint) => lint(input)).map(boundLint);
  // A file whose cause an error already names (frontmatter, a dead glob) is not said again to be loaded by no client.
  const explained = new Set(all.filter((lint) => lint.severity === 'error').map((lint) => lint.path));
  const seen = new Set<string>();
  return all
    .filter((lint) => lint.code !== 'loaded-by-no-client' || !explained.has(lint.path))
    .filter((lint) => {
      const key = `${lint.code}\0${lint.path}\0${lint.line ?? 0}\0${lint.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.line ?? 0) - (b.line ?? 0) || LINT_CODES.indexOf(a.code) - LINT_CODES.indexOf(b.code)));
}
