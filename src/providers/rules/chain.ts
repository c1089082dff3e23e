/**
 * @module providers/rules/chain
 * Finds the instruction file of each directory from the repository root down to the task's
 * working directory, at the snapshot's commit.
 */
import type { Snapshot } from '../../sources/snapshot.ts';

/** `'a/b'` -> `['', 'a', 'a/b']`: general first, specific last. */
export function directoryChain(cwd: string): string[] {
  const parts = cwd.split('/').filter((part) => part !== '');
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

export type ChainLink =
  | { dir: string; status: 'found'; path: string }
  | { dir: string; status: 'none' }
  | { dir: string; status: 'unavailable'; reason: string };

/** Lists every directory of the chain in parallel and picks the first configured name present. */
export async function findInstructionFiles(
  snapshot: Snapshot,
  cwd: string,
  filenames: readonly string[],
  signal: AbortSignal,
): Promise<ChainLink[]> {
  return Promise.all(
    directoryChain(cwd).map(async (dir): Promise<ChainLink> => {
      const listing = await snapshot.list(dir, { signal });
      // An unreadable source leaves the rules unknown: that is a failure, never an absence.
      if (listing.status === 'failed') throw new Error(`could not list ${dir || '.'}: ${listing.reason}`);
      if (listing.status !== 'ok') {
        const why = listing.status === 'missing' ? 'not in the tree at this commit' : 'reason' in listing ? listing.reason : listing.status;
        return { dir, status: 'unavailable', reason: `${dir || '.'}: ${why}` };
      }
      const present = new Map(listing.entries.filter((e) => e.kind === 'file' || e.kind === 'symlink').map((e) => [e.name, e.path]));
      const name = filenames.find((candidate) => present.has(candidate));
      const path = name === undefined ? undefined : present.get(name);
      return path === undefined ? { dir, status: 'none' } : { dir, status: 'found', path };
    }),
  );
}
