/**
 * @module providers/rules/glob-check
 * Which globs match no file at all at the commit: a glob with a typo, or one left behind by a
 * move, silently scopes its rule to nothing, the most common mistake with path-scoped rules.
 * Only globs that no focus path matched are checked (a match proves the glob can match). The
 * walk starts at each glob's literal base, lists breadth first, in sorted order, and stops when
 * every glob has matched or after `maxDirectories` listings; a glob still unmatched then is
 * reported only if the walk saw all of its base.
 *
 * Before that walk, the same walk over only what the snapshot already holds (`Snapshot.listed`:
 * a GitHub task's read-ahead, which lists every focus chain) proves alive the globs a file
 * there matches, so they cost no request; only globs still unmatched then are walked, and the
 * walk may load the whole tree (issue 56: a pull request's first turn and its check run read
 * nothing after the read-ahead when their globs match files it listed). A glob is called dead
 * only by the full walk, as before.
 */
import { walkBreadthFirst } from '../../sources/breadth-first.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { RuleGlob } from './globs.ts';

export async function globsMatchingNothing(snapshot: Snapshot, globs: readonly RuleGlob[], maxDirectories: number, signal: AbortSignal): Promise<Set<RuleGlob>> {
  const pending = new Set(globs);
  if (snapshot.listed) await walkBases(snapshot.listed.bind(snapshot), pending, { bound: { left: maxDirectories }, signal, listing: 'as-far-as-it-goes', skipFailed: true });
  const exhausted = await walkBases(snapshot.list.bind(snapshot), pending, { bound: { left: maxDirectories }, signal, listing: 'whole-levels' });
  return new Set([...pending].filter((glob) => exhausted.has(glob.base)));
}

/**
 * Walks from each base of the globs still pending, deleting each glob a file matches, until none
 * of that base is left; answers the bases whose walk saw everything below them.
 */
async function walkBases(list: Parameters<typeof walkBreadthFirst>[0], pending: Set<RuleGlob>, options: Omit<Parameters<typeof walkBreadthFirst>[2], 'more'>): Promise<Set<string>> {
  const exhausted = new Set<string>();
  for (const base of [...new Set([...pending].map((glob) => glob.base))].sort()) {
    const waiting = () => [...pending].filter((glob) => glob.base === base);
    const cut = await walkBreadthFirst(list, base, { ...options, more: () => waiting().length > 0 }, (listing) => {
      for (const entry of listing.entries) if (entry.kind !== 'dir') for (const glob of waiting()) if (glob.test(entry.path)) pending.delete(glob);
    });
    if (!cut) exhausted.add(base);
  }
  return exhausted;
}
