/**
 * @module providers/rules/glob-check
 * Which globs match no file at all at the commit: a glob with a typo, or one left behind by a
 * move, silently scopes its rule to nothing, the most common mistake with path-scoped rules.
 * Only globs that no focus path matched are checked (a match proves the glob can match). The
 * walk starts at each glob's literal base, lists breadth first, in sorted order, and stops when
 * every glob has matched or after `maxDirectories` listings; a glob still unmatched then is
 * reported only if the walk saw all of its base.
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import type { RuleGlob } from './globs.ts';

export async function globsMatchingNothing(snapshot: Snapshot, globs: readonly RuleGlob[], maxDirectories: number, signal: AbortSignal): Promise<Set<RuleGlob>> {
  const pending = new Set(globs);
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
