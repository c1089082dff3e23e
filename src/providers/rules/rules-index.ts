/**
 * @module providers/rules/rules-index
 * The compact index of agent-requested rules (a description, no globs): one line per rule with
 * its name, description and location, like the skills index, so the model can ask for the one
 * that fits instead of being handed them all.
 */
import type { FoundRule } from './formats/rule-file.ts';

export const RULES_INDEX_TITLE = 'Rules index';
export const FOCUS_RULES_INDEX_TITLE = 'Rules index (focus paths)';

const HEADER =
  'Rules you can ask for, one per line as `name: description (path)`. They are not in this context: ask the host for a rule by name when its description fits the work.';
const MAX_DESCRIPTION_CHARS = 300;

export function renderRulesIndex(rules: readonly FoundRule[]): string {
  return [HEADER, ...rules.map((rule) => `- ${rule.name}: ${oneLine(rule.activation.kind === 'requested' ? rule.activation.description : '')} (${rule.path})`)].join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_DESCRIPTION_CHARS ? flat : `${flat.slice(0, MAX_DESCRIPTION_CHARS - 1)}…`;
}
