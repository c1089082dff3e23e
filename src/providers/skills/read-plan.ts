/**
 * @module providers/skills/read-plan
 * What discovery will list and read, said ahead: one walk per configured root, from its literal
 * prefix down as many levels as its pattern has (`maxDepth` for `**`), reading `SKILL.md` where
 * a match can be; and the directories on the way to the working directory and to each focus
 * path, listed to find nested roots (bounded as discovery bounds them). Nested roots themselves
 * are not planned: most directories have none, and a walk for each would make every task's
 * read-ahead bigger for the few that do; those are listed when a chain directory shows one.
 * Selected skills' bodies are the files the walks read.
 */
import type { TaskView } from '../../context/provider.ts';
import type { ReadPlan } from '../../sources/read-plan.ts';
import { chainDirectories } from './chain-roots.ts';
import { configuredRoots, type SkillsConfig } from './config.ts';
import { SKILL_FILE } from '../../lib/skill-file.ts';

export function skillsReadPlan(config: SkillsConfig, task: Pick<TaskView, 'cwd' | 'focusPaths'>): ReadPlan {
  const walks = configuredRoots(config).map((root) => {
    const fixed = root.rest.filter((segment) => segment.kind !== 'deep').length;
    const unbounded = root.rest.some((segment) => segment.kind === 'deep');
    return { prefix: root.prefix, depth: unbounded ? Math.max(fixed, config.maxDepth) : fixed, read: [SKILL_FILE], readFrom: fixed, unbounded };
  });
  if (config.nestedRoots.length === 0 || config.maxChainDirectories === 0) return { dirs: [], files: [], walks };
  // A focus path may be a file: only the directories above it are sure to be listed.
  const dirs = chainDirectories([task.cwd, ...task.focusPaths.map(parentOf)]).slice(0, config.maxChainDirectories);
  return { dirs: dirs.length > 1 ? dirs : [], files: [], walks };
}

function parentOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}
