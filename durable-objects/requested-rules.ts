/**
 * @module durable-objects/requested-rules
 * Rules a host asks for by name on a later turn are checked against turn 0's rules index: the
 * index is what the model was told it may ask for.
 */
import { ruleName } from '../src/providers/rules/formats/rule-file.ts';
import type { TurnRecord } from './task-store.ts';

/**
 * The first of `names` that turn 0's rules index does not list (by name or path), as the field
 * that names it; the index is what the model was told it may ask for.
 */
export function unknownRules(names: readonly string[], first: TurnRecord): { field: string; message: string } | undefined {
  const listed = (first.providers.find((outcome) => outcome.name === 'rules')?.verdicts ?? []).filter((verdict) => verdict.verdict === 'indexed');
  const known = new Set(listed.flatMap((verdict) => [verdict.path, ruleName(verdict.path)]));
  const index = names.findIndex((name) => !known.has(name));
  if (index < 0) return undefined;
  const listedNames = [...new Set(listed.map((verdict) => ruleName(verdict.path)))];
  const said = listedNames.length > 0 ? `the index lists ${listedNames.slice(0, 20).join(', ')}${listedNames.length > 20 ? ` and ${listedNames.length - 20} more` : ''}` : 'the index lists no agent-requested rules';
  return { field: `rules[${index}]`, message: `${JSON.stringify((names[index] ?? '').slice(0, 120))} is not an agent-requested rule of turn 0's rules index; ${said}` };
}
