/**
 * @module providers/skills/skill-index
 * The parsed skills index of one commit: what discovery and validation produce, what the cache
 * stores, and what selection and the index entry read. Selected bodies are not part of it.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

export const SkillSchema = lazySchema(() => z.object({
  /**
   * The declared name, stripped and NFKC-normalised as the reference validator compares it
   * (whitespace collapsed), or the directory's name when none was declared. Selection and
   * duplicate detection compare this.
   */
  name: z.string().min(1),
  /** Whitespace collapsed to single spaces, so each skill is one line of the index. */
  description: z.string().min(1),
  /** Path of the SKILL.md (or skill.md). */
  path: z.string().min(1),
}));
export type Skill = z.infer<typeof SkillSchema>;

export const SkillIndexSchema = lazySchema(() => z.object({
  /** Sorted by name, then path. */
  skills: z.array(SkillSchema),
  /** Discovery and validation warnings, each naming the path or root it concerns. */
  warnings: z.array(z.string()),
  /** The root patterns searched: the configured ones and the nested ones found along the chains. */
  roots: z.array(z.string()),
}));
export type SkillIndex = z.infer<typeof SkillIndexSchema>;

export function compareSkills(a: Skill, b: Skill): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
