/**
 * @module providers/skills/load-index
 * Builds the parsed skills index of one commit from the snapshot: find the nested roots along
 * the scope's chains, discover, read every SKILL.md in parallel (each bounded by
 * `maxSkillBytes`), validate. The same commit, config and scope give the same index, which is
 * what makes it safe to cache. A listing or read the source could not serve throws instead: an
 * index missing what could not be read is neither true nor cacheable.
 */
import type { ReadResult, Snapshot } from '../../sources/snapshot.ts';
import { findChainRoots, type ChainScope } from './chain-roots.ts';
import { configuredRoots, type RootPattern, type SkillsConfig } from './config.ts';
import { discoverSkills } from './discover.ts';
import type { SkillFile } from './selected-entry.ts';
import { compareSkills, type Skill, type SkillIndex } from './skill-index.ts';
import { validateSkill } from './validate.ts';

/** Which skills one index holds: those under the configured roots, those along some chains, or both. */
export interface IndexScope {
  /** The configured roots, from the repository root. */
  configured: boolean;
  chain?: ChainScope;
}

export interface LoadedIndex {
  index: SkillIndex;
  /** The SKILL.md files read on the way, by path, so a selection does not read them twice. */
  files: Map<string, SkillFile>;
}

export async function loadSkillIndex(snapshot: Snapshot, config: SkillsConfig, scope: IndexScope, signal: AbortSignal): Promise<LoadedIndex> {
  const chain = scope.chain ? await findChainRoots(snapshot, config, scope.chain, signal) : { roots: [], warnings: [] };
  const roots: RootPattern[] = [...(scope.configured ? configuredRoots(config) : []), ...chain.roots];
  const discovery = await discoverSkills(snapshot, roots, config, signal);
  const reads = await Promise.all(discovery.found.map((found) => snapshot.read(found.path, { maxBytes: config.maxSkillBytes, signal })));

  const skills: Skill[] = [];
  const warnings = [...chain.warnings, ...discovery.warnings];
  const files = new Map<string, SkillFile>();
  discovery.found.forEach((found, i) => {
    const read = reads[i];
    if (!read) return;
    if (read.status === 'failed') throw new Error(`could not read ${found.path}: ${read.reason}`);
    if (read.status !== 'ok') {
      warnings.push(`${found.path}: skipped: ${describeUnreadable(read)}`);
      return;
    }
    files.set(found.path, read);
    const checked = validateSkill(found, read.text, read.truncated ? config.maxSkillBytes : undefined);
    if (checked.skill) skills.push(checked.skill);
    warnings.push(...checked.warnings);
  });
  return { index: { skills: skills.sort(compareSkills), warnings, roots: roots.map((root) => root.text) }, files };
}

export function describeUnreadable(read: Exclude<ReadResult, { status: 'ok' }>): string {
  switch (read.status) {
    case 'binary':
      return `not UTF-8 text (${read.reason})`;
    case 'unresolved-symlink':
      return `symlink to ${read.target} not followed (${read.reason})`;
    case 'not-a-file':
      return `is a ${read.kind}, not a file`;
    case 'missing':
      return 'not in the tree at this commit';
    case 'skipped':
      return read.reason;
    case 'invalid-path':
    case 'failed':
      return `could not be read: ${read.reason}`;
  }
}
