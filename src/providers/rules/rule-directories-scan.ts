/**
 * @module providers/rules/rule-directories-scan
 * Every directory of a commit that holds a rule file (one of the instruction file names some client
 * or Groundwork reads, or a `.cursor` directory), for a matrix of the whole repository
 * (`groundwork rules` without `--path`, run in CI). Breadth first, in sorted order, at most
 * `maxListings` directory listings; a walk cut short says so, so "no lint" never means "not looked at".
 */
import type { Snapshot } from '../../sources/snapshot.ts';

export interface ScannedDirectories {
  /** In tree order (`''` is the root). */
  dirs: string[];
  /** Set when the walk stopped before the end of the tree. */
  note?: string;
}

export async function scanRuleDirectories(snapshot: Snapshot, names: readonly string[], maxListings: number, signal: AbortSignal): Promise<ScannedDirectories> {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  const found: string[] = [];
  let level = [''];
  let listed = 0;
  while (level.length > 0) {
    if (listed + level.length > maxListings) {
      return { dirs: found, note: `the scan for rule files stopped after ${listed} directories (maxGlobCheckDirectories); ${level.length} more at depth ${level[0]?.split('/').length ?? 0} and below were not looked at` };
    }
    listed += level.length;
    signal.throwIfAborted();
    const listings = await Promise.all(level.map((dir) => snapshot.list(dir, { signal })));
    const next: string[] = [];
    for (const listing of listings) {
      if (listing.status === 'failed') throw new Error(`could not list ${listing.path || '.'}: ${listing.reason}`);
      if (listing.status !== 'ok') continue;
      if (listing.entries.some((entry) => (entry.kind === 'dir' ? entry.name === '.cursor' : wanted.has(entry.name.toLowerCase())))) found.push(listing.path);
      for (const entry of listing.entries) if (entry.kind === 'dir') next.push(entry.path);
    }
    level = next.sort();
  }
  return { dirs: found };
}
