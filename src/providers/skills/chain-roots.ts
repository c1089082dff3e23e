/**
 * @module providers/skills/chain-roots
 * Nested skill roots along the task's directory chains: a sub-project's own `.agents/skills/` or
 * `.claude/skills/`, found as Claude Code finds nested skills. The chains run from the repository
 * root to each target (the working directory, or each focus path); they are walked one level at
 * a time from the root, listing only directories that a parent's listing shows to be
 * directories, so a focus path that is a file, or that the commit does not have, costs nothing
 * past its nearest directory. Each level is sorted and the walk stops after `maxDirectories`
 * listings, so which directories fall outside the bound is the same on every run.
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { nestedRootHeads, nestedRootsIn, type RootPattern, type SkillsConfig } from './config.ts';

export interface ChainScope {
  /** Where the chains end: the working directory, or the focus paths. */
  targets: readonly string[];
  /** Directories whose nested roots another scope already covers (the working directory's chain). */
  skip?: ReadonlySet<string>;
  /** What the targets are, for warnings: `the working directory src/api`, `3 focus paths`. */
  label: string;
}

export interface ChainRoots {
  /** In tree order (depth, then path). */
  roots: RootPattern[];
  warnings: string[];
}

/** Directories named in a warning about the bound, at most. */
const NAMED_DIRECTORIES = 10;

/** `'a/b/c'` -> `['a', 'a/b', 'a/b/c']`: every directory a path lies under or is, root excluded. */
export function chainOf(path: string): string[] {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Every directory on the chains of `targets`, root first, each once, in tree order. */
export function chainDirectories(targets: readonly string[]): string[] {
  const dirs = new Set<string>(['']);
  for (const target of targets) for (const dir of chainOf(target)) dirs.add(dir);
  return [...dirs].sort(treeOrder);
}

export async function findChainRoots(snapshot: Snapshot, config: SkillsConfig, scope: ChainScope, signal: AbortSignal): Promise<ChainRoots> {
  const heads = nestedRootHeads(config);
  const onChain = new Set(chainDirectories(scope.targets));
  if (heads.size === 0 || onChain.size <= 1 || config.maxChainDirectories === 0) return { roots: [], warnings: [] };

  const roots: RootPattern[] = [];
  const unlisted: string[] = [];
  let listed = 0;
  let level = [''];
  while (level.length > 0) {
    signal.throwIfAborted();
    const admitted = level.slice(0, Math.max(0, config.maxChainDirectories - listed));
    unlisted.push(...level.slice(admitted.length));
    listed += admitted.length;
    const listings = await Promise.all(admitted.map((dir) => snapshot.list(dir, { signal })));
    const next: string[] = [];
    listings.forEach((listing, i) => {
      const dir = admitted[i] ?? '';
      // An unreadable source leaves the skills unknown: a failure, never an empty index.
      if (listing.status === 'failed') throw new Error(`could not list ${dir || '.'} (looking for nested skill roots): ${listing.reason}`);
      if (listing.status !== 'ok') return;
      const subdirs = listing.entries.filter((entry) => entry.kind === 'dir');
      const present = new Set(subdirs.filter((entry) => heads.has(entry.name)).map((entry) => entry.name));
      if (dir !== '' && !scope.skip?.has(dir) && present.size > 0) roots.push(...nestedRootsIn(config, dir, present));
      for (const entry of subdirs) if (onChain.has(entry.path)) next.push(entry.path);
    });
    level = next.sort(treeOrder);
  }

  const warnings: string[] = [];
  if (unlisted.length > 0) {
    const named = unlisted.slice(0, NAMED_DIRECTORIES).join(', ');
    const more = unlisted.length > NAMED_DIRECTORIES ? ` and ${unlisted.length - NAMED_DIRECTORIES} more` : '';
    warnings.push(`nested skill roots: stopped after listing ${config.maxChainDirectories} directories on the way to ${scope.label} (maxChainDirectories); not searched: ${named}${more}`);
  }
  return { roots, warnings };
}

function treeOrder(a: string, b: string): number {
  const depth = (path: string) => (path === '' ? 0 : path.split('/').length);
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
}
