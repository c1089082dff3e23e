/**
 * @module providers/rules/lints/dead-globs
 * A glob that matches no file at the commit (a typo, a directory since moved) scopes its rule to
 * nothing, and no client says so. A rule whose every glob is dead never applies: an error; one dead
 * glob among live ones: a warning. Judged only where the bounded walk saw the glob's whole base
 * (lints/gather), and only for a format whose client is in the repository's set.
 */
import type { RuleLint } from '../../../context/rule-lint.ts';
import type { LintInput } from './lint-input.ts';
import { keyLine, lineOf } from './lines.ts';
import { SCOPED_FORMATS } from './scoped-formats.ts';

export function deadGlobLints(input: LintInput): RuleLint[] {
  const out: RuleLint[] = [];
  const byPath = new Map<string, Array<LintInput['globs'][number]>>();
  for (const check of input.globs) byPath.set(check.path, [...(byPath.get(check.path) ?? []), check]);
  for (const [path, checks] of byPath) {
    const file = input.files.find((candidate) => candidate.path === path && candidate.found);
    const format = file ? SCOPED_FORMATS[file.format] : undefined;
    if (!file || !format || !input.clients.includes(format.client)) continue;
    const dead = checks.filter((check) => check.matchesNothing);
    if (dead.length === 0) continue;
    const field = dead[0]?.field ?? format.field;
    const fieldLine = file.text === undefined ? undefined : keyLine(file.text, field);
    const quoted = dead.map((check) => JSON.stringify(check.glob.length > 80 ? `${check.glob.slice(0, 79)}…` : check.glob)).join(', ');
    if (dead.length === checks.length) {
      out.push({ code: 'glob-matches-nothing', severity: 'error', path, ...(fieldLine === undefined ? {} : { line: fieldLine }), clients: [format.client], message: `no file at this commit matches ${field} ${quoted}: the rule never applies`, facts: [format.fact] });
      continue;
    }
    for (const check of dead) {
      const line = file.text === undefined ? undefined : lineOf(file.text, check.glob, fieldLine ?? 1) ?? fieldLine;
      out.push({ code: 'glob-matches-nothing', severity: 'warning', path, ...(line === undefined ? {} : { line }), clients: [format.client], message: `${field} ${JSON.stringify(check.glob.slice(0, 80))} matches no file at this commit`, facts: [format.fact] });
    }
  }
  return out;
}
