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
import type { Snapshot } from '../../sources/snapshot.ts';
import type { RuleGlob } from './globs.ts';

export async function globsMatchingNothing(snapshot: Snapshot, globs: readonly RuleGlob[], maxDirectories: number, signal: AbortSignal): Promise<Set<RuleGlob>> {
  const pending = new Set(globs);
  if (snapshot.listed) await matchHeld(snapshot.listed.bind(snapshot), pending, maxDirectories, signal);
  const exhausted = new Set<string>();
  const bases = [...new Set(globs.map((glob) => glob.base))].sort();
  let listed = 0;
  for (const base of bases) {
    const waiting = () => [...pending].filter((glob) => glob.base === base);
    let level = [base];
    let complete = true;
    while (level.length > 0 && waiting().length > 0) {
      if (listed + level.length > maxDirectories) {
        complete = false;
        break;
      }
      listed += level.length;
      signal.throwIfAborted();
      const listings = await Promise.all(level.map((dir) => snapshot.list(dir, { signal })));
      const next: string[] = [];
      for (const listing of listings) {
        if (listing.status === 'failed') throw new Error(`could not list ${listing.path || '.'}: ${listing.reason}`);
        if (listing.status !== 'ok') continue;
        for (const entry of listing.entries) {
          if (entry.kind === 'dir') next.push(entry.path);
          else for (const glob of waiting()) if (glob.test(entry.path)) pending.delete(glob);
        }
      }
      level = next.sort();
    }
    if (complete) exhausted.add(base);
  }
  return new Set([...pending].filter((glob) => exhausted.has(glob.base)));
}

/** Deletes from `pending` every glob a file in the listings `listed` already holds matches: at most `maxDirectories` of them, no request. */
async function matchHeld(listed: NonNullable<Snapshot['listed']>, pending: Set<RuleGlob>, maxDirectories: number, signal: AbortSignal): Promise<void> {
  let seen = 0;
  for (const base of [...new Set([...pending].map((glob) => glob.base))].sort()) {
    const waiting = () => [...pending].filter((glob) => glob.base === base);
    let level = [base];
    while (level.length > 0 && waiting().length > 0 && seen < maxDirectories) {
      level = level.slice(0, maxDirectories - seen);
      seen += level.length;
      signal.throwIfAborted();
      const listings = await Promise.all(level.map((dir) => listed(dir, { signal })));
      const next: string[] = [];
      for (const listing of listings) {
        if (listing?.status !== 'ok') continue;
        for (const entry of listing.entries) {
          if (entry.kind === 'dir') next.push(entry.path);
          else for (const glob of waiting()) if (glob.test(entry.path)) pending.delete(glob);
        }
      }
      level = next.sort();
    }
  }
}
