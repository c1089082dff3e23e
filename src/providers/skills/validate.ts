/**
 * @module providers/skills/validate
 * Checks one SKILL.md against the Agent Skills specification, leniently: a skill is skipped
 * only when it cannot be indexed usefully (no frontmatter, YAML that does not parse, no
 * description); every other problem is a warning naming the file, and the skill stays.
 */
import { z } from 'zod';
import type { FoundSkill } from './discover.ts';
import { parseFrontmatter, splitSkillFile } from './frontmatter.ts';
import type { Skill } from './skill-index.ts';

/** The specification's name rule, one message per broken clause. */
export const SkillNameSchema = z
  .string()
  .min(1, 'is empty')
  .max(64, 'is longer than 64 characters')
  .regex(/^[a-z0-9-]*$/, 'may contain only a-z, 0-9 and -')
  .refine((name) => !name.startsWith('-') && !name.endsWith('-'), 'must not start or end with -')
  .refine((name) => !name.includes('--'), 'must not contain --');

export const MAX_DESCRIPTION_CHARS = 1024;

/** Only the fields the index uses are modelled; other keys (license, metadata, ...) are ignored. */
const FrontmatterSchema = z.looseObject({ name: z.unknown().optional(), description: z.unknown().optional() });
const DescriptionSchema = z.string().transform(collapseWhitespace).pipe(z.string().min(1));

export interface Validated {
  skill?: Skill;
  warnings: string[];
}

/** `readLimit`: set when only the file's first `readLimit` bytes were read. */
export function validateSkill(found: FoundSkill, text: string, readLimit?: number): Validated {
  const skip = (reason: string): Validated => ({ warnings: [`${found.path}: skipped: ${reason}`] });

  const split = splitSkillFile(text);
  if (split.kind === 'none') return skip('no YAML frontmatter (a --- block on the first line) with a description');
  if (split.kind === 'unclosed') {
    return skip(readLimit === undefined ? 'frontmatter is not closed by a --- line' : `frontmatter does not close within the first ${readLimit} bytes (maxSkillBytes)`);
  }
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) return skip(parsed.reason);
  const fields = FrontmatterSchema.safeParse(parsed.data ?? {});
  if (!fields.success) return skip('frontmatter is not a YAML mapping');

  const raw = fields.data.description;
  if (raw === undefined || raw === null) return skip('frontmatter has no description');
  const description = DescriptionSchema.safeParse(raw);
  if (!description.success) return skip(typeof raw === 'string' ? 'description is empty' : 'description is not text');

  const warnings: string[] = [];
  const length = [...description.data].length;
  if (length > MAX_DESCRIPTION_CHARS) warnings.push(`${found.path}: description has ${length} characters; the spec allows at most ${MAX_DESCRIPTION_CHARS}`);

  const name = checkName(found, fields.data.name, warnings);
  if (name === undefined) return skip('no name in the frontmatter and no directory name to use instead');
  return { skill: { name, description: description.data, path: found.path }, warnings };
}

function checkName(found: FoundSkill, raw: unknown, warnings: string[]): string | undefined {
  const directory = found.dir.slice(found.dir.lastIndexOf('/') + 1);
  const fallback = (problem: string): string | undefined => {
    if (directory === '') return undefined;
    warnings.push(`${found.path}: ${problem}; indexed as "${directory}"`);
    return directory;
  };
  if (raw === undefined || raw === null) return fallback('frontmatter has no name');
  if (typeof raw !== 'string') return fallback('name is not text');
  const name = collapseWhitespace(raw);
  if (name === '') return fallback('name is empty');

  const rule = SkillNameSchema.safeParse(name);
  if (!rule.success) warnings.push(`${found.path}: name "${name}" ${rule.error.issues.map((issue) => issue.message).join(', ')}`);
  if (name !== directory) warnings.push(`${found.path}: name "${name}" does not match its directory "${directory}"`);
  return name;
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
