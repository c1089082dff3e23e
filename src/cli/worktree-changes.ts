/**
 * @module cli/worktree-changes
 * The output shows committed files only. When the user has edited, added or deleted a rules file
 * or a SKILL.md that the run would read, they should hear that the output does not show it:
 * "AGENTS.md has uncommitted changes; showing HEAD". The rules chain and skill discovery run on
 * both the commit and the working tree, and what they find is compared.
 */
import { DEFAULT_RULE_FILES } from '../providers/rules/provider.ts';
import { FOCUS_LIMITS } from '../context/focus.ts';
import { focusDirectories, listDirectories } from '../providers/rules/chain.ts';
import { configuredRoots, SKILLS_DEFAULTS, SkillsConfigSchema } from '../providers/skills/config.ts';
import { discoverSkills } from '../providers/skills/discover.ts';
import type { Snapshot } from '../sources/snapshot.ts';

const COMPARE_BYTES = 4 * 1024 * 1024;

export interface WorktreeComparison {
  committed: Snapshot;
  worktree: Snapshot;
  cwd: string;
  /** `--path` focus paths, whose chains the rules are read along too. */
  focusPaths?: readonly string[];
  /** `--skills-root` patterns, if any. */
  skillRoots: readonly string[];
  /** How the commit was named, for the message (`HEAD`). */
  shown: string;
}

export async function uncommittedChanges(input: WorktreeComparison): Promise<string[]> {
  const signal = AbortSignal.timeout(10_000);
  const config = input.skillRoots.length > 0 ? SkillsConfigSchema.parse({ roots: input.skillRoots }) : SKILLS_DEFAULTS;
  const interesting = async (snapshot: Snapshot): Promise<Set<string>> => {
    const [chain, skills] = await Promise.all([
      listDirectories(snapshot, focusDirectories(input.cwd, input.focusPaths ?? [], { max: FOCUS_LIMITS.directories }).dirs, DEFAULT_RULE_FILES, signal),
      discoverSkills(snapshot, configuredRoots(config), { maxDepth: config.maxDepth, maxDirectories: config.maxDirectories }, signal),
    ]);
    return new Set([...chain.flatMap((link) => (link.status === 'found' ? [link.path] : [])), ...skills.found.map((skill) => skill.path)]);
  };
  const [committed, edited] = await Promise.all([interesting(input.committed), interesting(input.worktree)]);
  const warnings: string[] = [];
  for (const path of [...new Set([...committed, ...edited])].sort()) {
    if (!committed.has(path)) warnings.push(`${path} is not committed; showing ${input.shown} without it`);
    else if (!edited.has(path)) warnings.push(`${path} is deleted in the working tree; showing ${input.shown}`);
    else {
      const same = await sameContent(input.committed, input.worktree, path);
      if (typeof same === 'string') warnings.push(`${path} could not be compared with the working tree (${same}); showing ${input.shown}`);
      else if (!same) warnings.push(`${path} has uncommitted changes; showing ${input.shown}`);
    }
  }
  return warnings;
}

/** Whether the two hold the same bytes; why not known when either could not be read (a blob a clone lacks). */
async function sameContent(a: Snapshot, b: Snapshot, path: string): Promise<boolean | string> {
  const [left, right] = await Promise.all([a.read(path, { maxBytes: COMPARE_BYTES }), b.read(path, { maxBytes: COMPARE_BYTES })]);
  for (const side of [left, right]) if (side.status === 'failed') return side.reason;
  if (left.status !== 'ok' || right.status !== 'ok') return left.status === right.status;
  return left.text === right.text && left.size === right.size;
}
