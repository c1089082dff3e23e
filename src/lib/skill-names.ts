/**
 * @module lib/skill-names
 * The Agent Skills name rule as the reference validator (`skills-ref`) applies it: the name is
 * stripped and NFKC-normalised, then must be at most 64 characters of lowercase Unicode letters,
 * digits and `-`, not start or end with `-` and not contain `--`. So `技能`, `навык` and
 * `мой-навык` are names, `НАВЫК` is not (not lowercase), and `cafe` + U+0301 is the same name
 * as a precomposed `café`.
 *
 * Skill validation, `$name` selection and the task request schema all use this one module, so a
 * name the index accepts is a name a task can select.
 */
import { once } from './once.ts';
import { asciiFirst } from './unicode-regexp.ts';

export const MAX_SKILL_NAME_CHARS = 64;

export type SkillNameRule = 'name-length' | 'name-lowercase' | 'name-hyphen-edge' | 'name-consecutive-hyphens' | 'name-characters';

export interface SkillNameProblem {
  rule: SkillNameRule;
  /** Says what is wrong, without naming the name (the caller does). */
  message: string;
}

/** Python's `str.isspace` set, which the reference strips; unlike JS `trim`, it keeps U+FEFF. */
const SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const EDGE_SPACE = new RegExp(`^${SPACE}+|${SPACE}+$`, 'g');
const ONLY_SPACE = new RegExp(`^${SPACE}*$`);

/** Strips the whitespace the reference validator strips. */
export function stripSpace(text: string): string {
  return text.replace(EDGE_SPACE, '');
}

/** True when nothing but whitespace is left (the reference's "non-empty string" test). */
export function isBlank(text: string): boolean {
  return ONLY_SPACE.test(text);
}

/** The form every comparison uses: stripped, then NFKC. */
export function normaliseSkillName(raw: string): string {
  return stripSpace(raw).normalize('NFKC');
}

/** Length in code points, as Python's `len` counts (an emoji is one, not two). */
export function codePoints(text: string): number {
  return [...text].length;
}

/** Letters, digits and `-` alone (ASCII: no other letters or digits). */
export const NAME_CHARS = asciiFirst(/^[A-Za-z0-9-]*$/, () => /^[\p{L}\p{N}-]*$/u);

/**
 * Every clause a normalised name breaks, in the reference's order; empty when it is a name.
 * Letters and digits are Unicode categories L and N, which is exactly Python's `isalnum`.
 *
 * @example
 * skillNameProblems(normaliseSkillName('НАВЫК')) // [{ rule: 'name-lowercase', ... }]
 */
export function skillNameProblems(name: string): SkillNameProblem[] {
  const problems: SkillNameProblem[] = [];
  const length = codePoints(name);
  if (length > MAX_SKILL_NAME_CHARS) problems.push({ rule: 'name-length', message: `has ${length} characters; at most ${MAX_SKILL_NAME_CHARS} are allowed` });
  if (name !== name.toLowerCase()) problems.push({ rule: 'name-lowercase', message: 'must be lowercase' });
  if (name.startsWith('-') || name.endsWith('-')) problems.push({ rule: 'name-hyphen-edge', message: 'must not start or end with -' });
  if (name.includes('--')) problems.push({ rule: 'name-consecutive-hyphens', message: 'must not contain --' });
  if (!NAME_CHARS.for(name).test(name)) problems.push({ rule: 'name-characters', message: 'may contain only letters, digits and -' });
  return problems;
}

/** A non-empty normalised name that breaks no clause. */
export function isSkillName(name: string): boolean {
  return name !== '' && skillNameProblems(name).length === 0;
}

/**
 * A `$` not preceded by a word character or another `$`, then letters, digits, combining marks
 * and `-` up to the next character that cannot be in a name. Marks are taken so a decomposed
 * `$cafe\u0301` normalises to the name `café`; `_` ends nothing, so `$snake_case` is no token.
 */
const mention = once(() => /(?<![\p{L}\p{N}\p{M}_$])\$([\p{L}\p{N}\p{M}-]+)(?![\p{L}\p{N}\p{M}_-])/gu);
const letter = once(() => /\p{L}/u);

/**
 * `$name` selections in free text, normalised, each once, in order of first mention. A token
 * is a selection only when it is a valid name holding at least one letter, so prices (`$100`)
 * and shell variables (`$HOME`: not lowercase) select nothing. A name ends at a space or
 * punctuation: in `$技能を使う` the whole run of letters is the token.
 *
 * @example
 * skillMentions('use $release-notes, then $навык. Not $100 or $HOME.') // ['release-notes', 'навык']
 */
export function skillMentions(text: string): string[] {
  // Most requests name no skill: the mention expression is then never made (milliseconds in a cold process).
  if (!text.includes('$')) return [];
  const names = new Set<string>();
  for (const match of text.matchAll(mention())) {
    const name = normaliseSkillName(match[1] ?? '');
    if (letter().test(name) && isSkillName(name)) names.add(name);
  }
  return [...names];
}

/**
 * `$Name` tokens that are a name but for their case (`$PDF`, `$Release-Notes`), normalised, each
 * once, in order of first mention. Names are lowercase by the spec, so such a token may mean a
 * skill; it may as well be a shell variable (`$HOME`), which is why selection takes one only
 * when its lowercase form names exactly one skill, and says nothing otherwise.
 *
 * @example
 * caseVariantMentions('convert it with $PDF, not $pdf; see $HOME') // ['PDF', 'HOME']
 */
export function caseVariantMentions(text: string): string[] {
  if (!text.includes('$')) return [];
  const names = new Set<string>();
  for (const match of text.matchAll(mention())) {
    const name = normaliseSkillName(match[1] ?? '');
    if (letter().test(name) && name !== name.toLowerCase() && isSkillName(name.toLowerCase())) names.add(name);
  }
  return [...names];
}
