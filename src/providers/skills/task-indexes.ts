/**
 * @module providers/skills/task-indexes
 * The skill indexes a task reads: the one of the configured roots and the working directory's
 * chain (shared by every task on the commit and working directory), and the one of the focus
 * paths' chains, for the directories the first does not cover (when the task has any).
 */
import type { TaskView } from '../../context/provider.ts';
import type { KeyValueStore } from '../../sources/key-value-store.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { chainOf } from './chain-roots.ts';
import type { SkillsConfig } from './config.ts';
import { cachedSkillIndex } from './index-cache.ts';
import type { IndexScope, LoadedIndex } from './load-index.ts';
import type { SkillFile } from './selected-entry.ts';
import { compareSkills, type Skill } from './skill-index.ts';

/** The index of the configured roots and the working directory's chain, and the one of the focus paths' chains (when the task has any). */
export async function loadIndexes(
  cache: KeyValueStore | undefined,
  snapshot: Snapshot,
  config: SkillsConfig,
  task: TaskView,
  signal: AbortSignal,
): Promise<{ shared: LoadedIndex; focus?: LoadedIndex }> {
  const sharedScope: IndexScope = task.cwd === '' ? { configured: true } : { configured: true, chain: { targets: [task.cwd], label: `the working directory ${task.cwd}` } };
  const covered = new Set(chainOf(task.cwd));
  const focusPaths = task.focusPaths.filter((path) => chainOf(path).some((dir) => !covered.has(dir)));
  const focusScope: IndexScope | undefined =
    focusPaths.length === 0 ? undefined : { configured: false, chain: { targets: focusPaths, skip: covered, label: focusPaths.length === 1 ? `the focus path ${focusPaths[0]}` : `${focusPaths.length} focus paths` } };
  const [shared, focus] = await Promise.all([cachedSkillIndex(cache, snapshot, config, sharedScope, signal), focusScope ? cachedSkillIndex(cache, snapshot, config, focusScope, signal) : undefined]);
  return focus ? { shared, focus } : { shared };
}

/**
 * Both indexes as one: every skill (the focus index's only where the shared one lacks its path),
 * in index order, those only the focus paths brought, and the SKILL.md files either read.
 */
export function mergeIndexes(shared: LoadedIndex, focus: LoadedIndex | undefined): { all: Skill[]; focusOnly: Skill[]; files: Map<string, SkillFile> } {
  const sharedPaths = new Set(shared.index.skills.map((skill) => skill.path));
  const focusOnly = focus ? focus.index.skills.filter((skill) => !sharedPaths.has(skill.path)) : [];
  return { all: [...shared.index.skills, ...focusOnly].sort(compareSkills), focusOnly, files: new Map([...(focus?.files ?? []), ...shared.files]) };
}
