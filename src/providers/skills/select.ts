/**
 * @module providers/skills/select
 * Which skills a task selected: `$name` tokens in the request plus the task's explicit list,
 * compared with the index after NFKC normalisation (so a decomposed `café` selects a skill
 * declared precomposed). A name shared by two skills selects neither (guessing would hand the
 * model the wrong instructions); an explicit entry may name a skill by its directory or
 * SKILL.md path instead. A `$Name` that differs from a skill's name only by case (`$PDF` for
 * `pdf`) selects that skill, said in a warning; one that names no skill in any case is taken
 * for what it most often is, a shell variable (`$HOME`), and says nothing.
 */
import { caseVariantMentions, isSkillName, normaliseSkillName, skillMentions } from '../../lib/skill-names.ts';
import { quoted } from './rules.ts';
import { compareSkills, type Skill } from './skill-index.ts';

export interface Selection {
  /** In index order, each skill once. */
  selected: Skill[];
  warnings: string[];
}

export function selectSkills(skills: readonly Skill[], request: string, explicit: readonly string[]): Selection {
  const wanted = new Map<string, string>();
  for (const name of skillMentions(request)) wanted.set(name, `$${name} in the task`);
  for (const raw of explicit) {
    const unprefixed = raw.trim().replace(/^\$/, '');
    const name = unprefixed.includes('/') ? unprefixed : normaliseSkillName(unprefixed);
    if (name !== '' && !wanted.has(name)) wanted.set(name, `skill ${quoted(name, 200)} selected for the task`);
  }

  const selected = new Map<string, Skill>();
  const warnings: string[] = [];
  for (const token of caseVariantMentions(request)) {
    if (skills.some((skill) => skill.name === token)) {
      wanted.set(token, `$${token} in the task`);
      continue;
    }
    const lower = token.toLowerCase();
    const matches = skills.filter((skill) => skill.name.toLowerCase() === lower);
    const [only] = matches;
    if (only && matches.length === 1) {
      if (!wanted.has(only.name)) warnings.push(`$${token} in the task selected skill ${quoted(only.name)} (skill names are lowercase; write $${only.name})`);
      wanted.set(only.name, `$${token} in the task`);
    } else if (matches.length > 1) {
      warnings.push(`$${token} in the task: ${matches.length} skills have this name but for case (${matches.map((skill) => skill.path).join(', ')}); none was selected, name one by its path`);
    }
  }
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
  return [...byName]
    .filter(([, paths]) => paths.length > 1)
    .map(([name, paths]) => `skills named ${quoted(name)} at ${paths.join(', ')}: ${isSkillName(name) ? `a plain $${name}` : 'their name'} selects none of them`);
}

function locatedAt(skill: Skill, location: string): boolean {
  const trimmed = location.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  const slash = skill.path.lastIndexOf('/');
  return skill.path === trimmed || (slash > 0 && skill.path.slice(0, slash) === trimmed);
}
