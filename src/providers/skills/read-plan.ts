/**
 * @module providers/skills/read-plan
 * What discovery will list and read, said ahead: one walk per root, from its literal prefix
 * down as many levels as its pattern has (`maxDepth` for `**`), reading `SKILL.md` where a
 * match can be. Selected skills' bodies are those same files.
 */
import type { ReadPlan } from '../../sources/read-plan.ts';
import { configuredRoots, type SkillsConfig } from './config.ts';
import { SKILL_FILE } from '../../lib/skill-file.ts';

export function skillsReadPlan(config: SkillsConfig): ReadPlan {
  const walks = configuredRoots(config).map((root) => {
    const fixed = root.rest.filter((segment) => segment.kind !== 'deep').length;
    const unbounded = root.rest.some((segment) => segment.kind === 'deep');
    return { prefix: root.prefix, depth: unbounded ? Math.max(fixed, config.maxDepth) : fixed, read: [SKILL_FILE], readFrom: fixed, unbounded };
  });
  return { dirs: [], files: [], walks };
}
