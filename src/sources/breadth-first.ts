/**
 * @module sources/breadth-first
 * A walk down a snapshot's tree, level by level, each level's directories in sorted order and
 * listed together, under a bound on how many directories are listed: the rules' whole-repository
 * scan and glob check share it, so the bound, the order and what a failed listing means are the
 * same wherever a walk decides "looked everywhere" from "stopped early".
 *
 * `listing` decides how much of a level the bound may take: `whole-levels` lists a level only if
 * all of it fits (a walk that says where it stopped), `as-far-as-it-goes` the part of it that fits
 * (a walk over listings already held, which costs nothing and stops quietly). A listing that
 * failed is an error unless `skipFailed` (listings already held answer nothing for the rest).
 */
import type { ListResult } from './snapshot.ts';

type Listed = Extract<ListResult, { status: 'ok' }>;

export interface WalkBound {
  /** Directories the walk may still list; spent by this walk, so walks sharing it share the bound. */
  left: number;
}

export interface BreadthFirstOptions {
  bound: WalkBound;
  signal: AbortSignal;
  listing: 'whole-levels' | 'as-far-as-it-goes';
  skipFailed?: boolean;
  /** Checked before each level: false ends the walk (everything sought was found). */
  more?: () => boolean;
}

/** Where a walk stopped before the end of its subtree: the directories not listed, at this depth and below. */
export interface WalkCut {
  unlisted: number;
  depth: number;
}

/** Lists `start` and every directory below it (or until `more` says stop); `undefined` when the subtree was seen whole or `more` ended it. */
export async function walkBreadthFirst(
  list: (dir: string, options: { signal: AbortSignal }) => Promise<ListResult | undefined>,
  start: string,
  options: BreadthFirstOptions,
  visit: (listing: Listed) => void,
): Promise<WalkCut | undefined> {
  let level = [start];
  while (level.length > 0 && (options.more?.() ?? true)) {
    if (level.length > options.bound.left) {
      if (options.listing === 'whole-levels' || options.bound.left === 0) return { unlisted: level.length, depth: level[0]?.split('/').length ?? 0 };
      level = level.slice(0, options.bound.left);
    }
    options.bound.left -= level.length;
    options.signal.throwIfAborted();
    const listings = await Promise.all(level.map((dir) => list(dir, { signal: options.signal })));
    const next: string[] = [];
    for (const listing of listings) {
      if (listing?.status === 'failed') {
        if (options.skipFailed) continue;
        throw new Error(`could not list ${listing.path || '.'}: ${listing.reason}`);
      }
      if (listing?.status !== 'ok') continue;
      visit(listing);
      for (const entry of listing.entries) if (entry.kind === 'dir') next.push(entry.path);
    }
    level = next.sort();
  }
  return undefined;
}
