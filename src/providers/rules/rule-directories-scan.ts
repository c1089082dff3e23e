/**
 * @module providers/rules/rule-directories-scan
 * Every directory of a commit that holds a rule file (one of the instruction file names some client
 * or Groundwork reads, or a `.cursor` directory), for a matrix of the whole repository
 * (`groundwork rules` without `--path`, run in CI). Breadth first, in sorted order, at most
 * `maxListings` directory listings (sources/breadth-first); a walk cut short says so, so "no lint"
 * never means "not looked at".
 */
import { walkBreadthFirst } from '../../sources/breadth-first.ts';
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
  const bound = { left: maxListings };
  const cut = await walkBreadthFirst(snapshot.list.bind(snapshot), '', { bound, signal, listing: 'whole-levels' }, (listing) => {
    if (listing.entries.some((entry) => (entry.kind === 'dir' ? entry.name === '.cursor' : wanted.has(entry.name.toLowerCase())))) found.push(listing.path);
  });
  if (!cut) return { dirs: found };
  return { dirs: found, note: `the scan for rule files stopped after ${maxListings - bound.left} directories (maxGlobCheckDirectories); ${cut.unlisted} more at depth ${cut.depth} and below were not looked at` };
}
