/**
 * @module lib/skill-file
 * The file that makes a directory a skill. The skills provider finds skills by it and the
 * freshness check compares them by it, so both must agree on the names and their order.
 */

export const SKILL_FILE = 'SKILL.md';
/** In order of preference. */
export const SKILL_FILES = [SKILL_FILE, 'skill.md'] as const;

/** A directory's skill file among its listed entries (a file, or a symlink to one), by preference. */
export function findSkillFile<E extends { name: string; kind: string }>(entries: readonly E[]): E | undefined {
  for (const name of SKILL_FILES) {
    const entry = entries.find((candidate) => candidate.name === name && (candidate.kind === 'file' || candidate.kind === 'symlink'));
    if (entry) return entry;
  }
  return undefined;
}
