/**
 * @module providers/skills/validate
 * Checks one SKILL.md rule for rule as the Agent Skills reference validator (`skills-ref`)
 * does, but leniently: a skill is skipped only when it cannot be indexed usefully (no
 * frontmatter, YAML that does not parse or is not a mapping, no description, no name and no
 * directory to name it after); every other problem is a warning naming the file and the rule,
 * and the skill stays. Like the reference, every field is checked even when an earlier one
 * failed, so one run shows everything there is to fix.
 */
import { codePoints, isBlank, normaliseSkillName, skillNameProblems, stripSpace } from '../../lib/skill-names.ts';
import type { FoundSkill } from './discover.ts';
import { parseFrontmatter, splitFrontmatter } from '../frontmatter.ts';
import { ALLOWED_FIELDS, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, quoted, ruleWarning, type SkillProblem } from './rules.ts';
import type { Skill } from './skill-index.ts';

export interface Validated {
  skill?: Skill;
  /** `path: [skipped: ]message [rule]`, in the reference's order. */
  warnings: string[];
}

const ALLOWED = new Set<string>(ALLOWED_FIELDS);
const MAX_LISTED_FIELDS = 10;

/** `readLimit`: set when only the file's first `readLimit` bytes were read. */
export function validateSkill(found: FoundSkill, text: string, readLimit?: number): Validated {
  const skip = (problem: SkillProblem): Validated => ({ warnings: [ruleWarning(found.path, problem, true)] });

  const split = splitFrontmatter(text);
  if (split.kind === 'none') return skip({ rule: 'frontmatter-missing', message: 'no YAML frontmatter (a --- block on the first line) with a description' });
  if (split.kind === 'unclosed') {
    const message = readLimit === undefined ? 'frontmatter is not closed by a --- line' : `frontmatter does not close within the first ${readLimit} bytes (maxSkillBytes)`;
    return skip({ rule: 'frontmatter-unclosed', message });
  }
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) return skip({ rule: 'frontmatter-yaml', message: parsed.reason });
  const fields = parsed.data;
  if (!isMapping(fields)) return skip({ rule: 'frontmatter-mapping', message: 'frontmatter is not a YAML mapping' });

  const problems: SkillProblem[] = parsed.warnings.map((warning) => ({ rule: 'frontmatter-yaml', message: `frontmatter: ${warning}` }));
  if (parsed.strict.length > 0) {
    problems.push({ rule: 'frontmatter-yaml', message: `frontmatter uses YAML that strict parsers (the reference validator's strictyaml) refuse: ${parsed.strict.join(', ')}` });
  }
  const unexpected = Object.keys(fields).filter((key) => !ALLOWED.has(key)).sort();
  if (unexpected.length > 0) problems.push({ rule: 'fields-unexpected', message: unexpectedFields(unexpected) });

  const directory = found.dir.slice(found.dir.lastIndexOf('/') + 1);
  const name = checkName(fields, directory, problems);
  const description = checkDescription(fields, problems);
  checkCompatibility(fields, problems);

  const warnings = problems.map((problem) => ruleWarning(found.path, problem, problem === description.blocking || problem === name.blocking));
  if (description.value === undefined || name.value === undefined) return { warnings };
  return { skill: { name: name.value, description: description.value, path: found.path }, warnings };
}

interface Checked {
  /** What the index shows; undefined when the skill cannot be indexed. */
  value?: string;
  /** The problem that keeps the skill out of the index. */
  blocking?: SkillProblem;
}

function checkName(fields: Record<string, unknown>, directory: string, problems: SkillProblem[]): Checked {
  // A skill at the repository root has no directory name to compare with or fall back on.
  const fallback = (problem: SkillProblem): Checked => {
    if (directory === '') {
      const blocking = { ...problem, message: `${problem.message}, and a skill at the repository root has no directory name to use instead` };
      problems.push(blocking);
      return { blocking };
    }
    const name = display(normaliseSkillName(directory));
    problems.push({ ...problem, message: `${problem.message}; indexed as ${quoted(name)}` });
    return { value: name };
  };
  const raw = fields.name;
  if (raw === undefined) return fallback({ rule: 'name-missing', message: 'frontmatter has no name' });
  if (typeof raw !== 'string') return fallback({ rule: 'name-string', message: 'name is not text' });
  if (isBlank(raw)) return fallback({ rule: 'name-string', message: 'name is empty' });

  const name = normaliseSkillName(raw);
  for (const problem of skillNameProblems(name)) problems.push({ rule: problem.rule, message: `name ${quoted(name)} ${problem.message}` });
  if (directory !== '' && directory.normalize('NFKC') !== name) {
    problems.push({ rule: 'name-directory', message: `name ${quoted(name)} does not match its directory ${quoted(directory)}` });
  }
  return { value: display(name) };
}

function checkDescription(fields: Record<string, unknown>, problems: SkillProblem[]): Checked {
  const raw = fields.description;
  const block = (problem: SkillProblem): Checked => {
    problems.push(problem);
    return { blocking: problem };
  };
  if (raw === undefined) return block({ rule: 'description-missing', message: 'frontmatter has no description' });
  if (typeof raw !== 'string') return block({ rule: 'description-string', message: 'description is not text' });
  if (isBlank(raw)) return block({ rule: 'description-string', message: 'description is empty' });
  // The reference counts the text as YAML gave it, line breaks of a block scalar included.
  const length = codePoints(raw);
  if (length > MAX_DESCRIPTION_CHARS) problems.push({ rule: 'description-length', message: `description has ${length} characters; the spec allows at most ${MAX_DESCRIPTION_CHARS}` });
  return { value: display(raw) };
}

function checkCompatibility(fields: Record<string, unknown>, problems: SkillProblem[]): void {
  const raw = fields.compatibility;
  if (raw === undefined) return;
  if (typeof raw !== 'string') {
    problems.push({ rule: 'compatibility-string', message: 'compatibility is not text' });
    return;
  }
  const length = codePoints(raw);
  if (length > MAX_COMPATIBILITY_CHARS) problems.push({ rule: 'compatibility-length', message: `compatibility has ${length} characters; the spec allows at most ${MAX_COMPATIBILITY_CHARS}` });
}

function unexpectedFields(keys: readonly string[]): string {
  const listed = keys.slice(0, MAX_LISTED_FIELDS).map((key) => quoted(key, 40));
  const more = keys.length > MAX_LISTED_FIELDS ? ` and ${keys.length - MAX_LISTED_FIELDS} more` : '';
  return `unexpected frontmatter ${keys.length === 1 ? 'field' : 'fields'} ${listed.join(', ')}${more}; the spec allows only ${ALLOWED_FIELDS.join(', ')}`;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One line of the index: whitespace collapsed to single spaces. */
function display(text: string): string {
  return stripSpace(text.replace(/\s+/g, ' '));
}
