/**
 * @module providers/skills/select
 * Which skills a task selected: `$name` tokens in the request plus the task's explicit list.
 * A name shared by two skills selects neither (guessing would hand the model the wrong
 * instructions); an explicit entry may name a skill by its directory or SKILL.md path instead.
 */
import { SKILL_FILE } from './discover.ts';
import { compareSkills, type Skill } from './skill-index.ts';

export interface Selection {
  /** In index order, each skill once. */
  selected: Skill[];
  warnings: string[];
}

/**
 * `$name` tokens: a `$` not preceded by a word character, then a name that holds at least one
 * letter, so `$100` and `$HOME` are not selections.
 *
 * @example
 * selectionTokens('please use $release-notes, then $lint.') // ['release-notes', 'lint']
 */
export function selectionTokens(request: string): string[] {
  const tokens = new Set<string>();
  for (const match of request.matchAll(/(?<![\w$])\$([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?![\w-])/g)) {
    const name = match[1];
    if (name !== undefined && /[a-z]/.test(name)) tokens.add(name);
  }
  return [...tokens];
}

export function selectSkills(skills: readonly Skill[], request: string, explicit: readonly string[]): Selection {
  const wanted = new Map<string, string>();
  for (const name of selectionTokens(request)) wanted.set(name, `$${name} in the task`);
  for (const raw of explicit) {
    const name = raw.trim().replace(/^\$/, '');
    if (name !== '' && !wanted.has(name)) wanted.set(name, `skill "${name}" selected for the task`);
  }

  const selected = new Map<string, Skill>();
  const warnings: string[] = [];
  for (const [name, origin] of wanted) {
    const matches = name.includes('/') ? skills.filter((skill) => locatedAt(skill, name)) : skills.filter((skill) => skill.name === name);
    const [only] = matches;
    if (only && matches.length === 1) selected.set(only.path, only);
    else if (matches.length === 0) warnings.push(`${origin}: no such skill in the index`);
    else warnings.push(`${origin}: ${matches.length} skills have this name (${matches.map((skill) => skill.path).join(', ')}); none was selected, name one by its path`);
  }
  return { selected: [...selected.values()].sort(compareSkills), warnings };
}

/** One warning per name that more than one skill declares, naming every path. */
export function duplicateNameWarnings(skills: readonly Skill[]): string[] {
  const byName = new Map<string, string[]>();
  for (const skill of skills) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill.path]);
  return [...byName].filter(([, paths]) => paths.length > 1).map(([name, paths]) => `skills named "${name}" at ${paths.join(', ')}: a plain $${name} selects none of them`);
}

function locatedAt(skill: Skill, location: string): boolean {
  const trimmed = location.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  return skill.path === trimmed || skill.path === `${trimmed}/${SKILL_FILE}`;
}
