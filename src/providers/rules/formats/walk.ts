/**
 * @module providers/rules/formats/walk
 * Finds the rule files under a rules directory (`.github/instructions`, `.cursor/rules`,
 * `.claude/rules`) through `Snapshot.list` only: level by level, each level's listings in
 * parallel and sorted, so what falls outside the bounds is the same on every run. Symlinked
 * directories are never entered; a symlinked file is returned and resolved by the read (inside
 * the tree only, see sources/snapshot).
 */
import type { Snapshot, TreeEntry } from '../../../sources/snapshot.ts';

export interface WalkLimits {
  /** Directory levels below the rules directory that are listed. */
  maxDepth: number;
  /** Files returned by this walk; the caller caps all walks together, in its own order. */
  maxFiles: number;
}

export interface Walked {
  files: TreeEntry[];
  notes: string[];
}

/** Whether a file name belongs to the format, e.g. ends with `.instructions.md`. */
export type NameTest = (name: string) => boolean;

export async function walkRuleDirectory(snapshot: Snapshot, dir: string, wanted: NameTest, limits: WalkLimits, signal: AbortSignal): Promise<Walked> {
  const files: TreeEntry[] = [];
  const notes: string[] = [];
  let level = [dir];
  for (let depth = 0; level.length > 0; depth++) {
    signal.throwIfAborted();
    const listings = await Promise.all(level.map((path) => snapshot.list(path, { signal })));
    const next: string[] = [];
    for (const listing of listings) {
      // An unreadable source leaves the rules unknown: a failure, never an absence.
      if (listing.status === 'failed') throw new Error(`could not list ${listing.path}: ${listing.reason}`);
      if (listing.status !== 'ok') continue;
      for (const entry of listing.entries) {
        if (entry.kind === 'dir') {
          if (depth < limits.maxDepth) next.push(entry.path);
          else notes.push(`${entry.path}: deeper than ${limits.maxDepth} levels below ${dir}, not searched for rules`);
        } else if ((entry.kind === 'file' || entry.kind === 'symlink') && wanted(entry.name)) {
          if (files.length >= limits.maxFiles) notes.push(`${entry.path}: left out, more than ${limits.maxFiles} rule files under ${dir}`);
          else files.push(entry);
        }
      }
    }
    level = next.sort();
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, notes };
}
