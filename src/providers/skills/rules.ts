/**
 * @module providers/skills/rules
 * The rules a skill is checked against, one id each, matching the checks of the Agent Skills
 * reference validator (`skills-ref`). Every warning ends with its rule id in brackets, so a
 * person (or a script) can tell which rule a warning is about without parsing its prose.
 */
import type { SkillNameRule } from '../../lib/skill-names.ts';

export type SkillRule =
  /** A root names one directory, and it is not in the tree at the commit. */
  | 'skill-dir-missing'
  /** A root names one directory, and it is a file (or a link, or a submodule). */
  | 'skill-dir-not-a-directory'
  /** A directory a root names as a skill holds no SKILL.md (nor skill.md). */
  | 'skill-file-missing'
  | 'frontmatter-missing'
  | 'frontmatter-unclosed'
  /** Not valid YAML, or YAML the reference's strict parser refuses (flow style, anchors, tags). */
  | 'frontmatter-yaml'
  | 'frontmatter-mapping'
  | 'fields-unexpected'
  | 'name-missing'
  /** The name is empty or not text. */
  | 'name-string'
  | SkillNameRule
  | 'name-directory'
  | 'description-missing'
  | 'description-string'
  | 'description-length'
  | 'compatibility-string'
  | 'compatibility-length';

export interface SkillProblem {
  rule: SkillRule;
  message: string;
}

/** Frontmatter fields the specification defines; any other is reported. */
export const ALLOWED_FIELDS = ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] as const;

export const MAX_DESCRIPTION_CHARS = 1024;
export const MAX_COMPATIBILITY_CHARS = 500;

/** `path: message [rule]`, with `skipped: ` when the problem kept the skill out of the index. */
export function ruleWarning(path: string, problem: SkillProblem, skipped = false): string {
  return `${path}: ${skipped ? 'skipped: ' : ''}${problem.message} [${problem.rule}]`;
}

/** Repository text inside a warning: quoted, escaped and bounded, so it cannot forge a line. */
export function quoted(text: string, max = 80): string {
  const chars = [...text];
  return JSON.stringify(chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`);
}
