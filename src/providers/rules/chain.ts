/**
 * @module providers/rules/chain
 * Directory chains: from the repository root down to a directory, general first. A task reads the
 * chain of its working directory and of every focus path, each directory once, in tree order (a
 * parent before any child, siblings by path), and at most a bounded number of directories: the
 * working directory's chain first, then each focus path's in the task's order.
 *
 * A focus path known to be a file (a pull request's changed file) ends its chain at its parent;
 * any other may name a directory, so its chain ends at the path itself (if that is a file at the
 * commit, its listing says so and the parent is the last directory).
 *
 * @example
 * focusDirectories('a', ['b/c.ts', 'a/d'], { files: ['b/c.ts'] }).dirs // ['', 'a', 'a/d', 'b']
 */
import { parentOf } from '../../sources/paths.ts';
import type { Snapshot } from '../../sources/snapshot.ts';

/** `'a/b'` -> `['', 'a', 'a/b']`: general first, specific last. */
export function directoryChain(cwd: string): string[] {
  const parts = cwd.split('/').filter((part) => part !== '');
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

/** Tree order: segment by segment in code-unit order, so a directory's children follow it directly (plain string order puts `a-b` between `a` and `a/b`). */
export function compareTreeOrder(a: string, b: string): number {
  const left = a === '' ? [] : a.split('/');
  const right = b === '' ? [] : b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] ?? '';
    const y = right[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/** Where a focus path's chain ends: its parent when it is known to name a file, else the path itself. */
export function focusDirectory(path: string, files: ReadonlySet<string>): string {
  return files.has(path) ? parentOf(path) : path;
}

export interface FocusDirectories {
  /** Directories whose instruction files are read, in tree order, at most `max`. */
  dirs: string[];
  /** Directories of the chains past the bound, in tree order: their rules are not read. */
  cut: string[];
}

/**
 * Every directory of the working directory's chain and of each focus path's, deduplicated and in
 * tree order, bounded: a chain is taken from the root down, so a directory is read only with all
 * its parents.
 */
export function focusDirectories(cwd: string, focusPaths: readonly string[], options: { files?: readonly string[]; max?: number } = {}): FocusDirectories {
  const files = new Set(options.files ?? []);
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const kept = new Set<string>();
  const cut = new Set<string>();
  for (const end of [cwd, ...focusPaths.map((path) => focusDirectory(path, files))]) {
    for (const dir of directoryChain(end)) {
      if (kept.has(dir) || cut.has(dir)) continue;
      if (kept.size < max) kept.add(dir);
      else cut.add(dir);
    }
  }
  return { dirs: [...kept].sort(compareTreeOrder), cut: [...cut].sort(compareTreeOrder) };
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
  const listed = await listDirectories(snapshot, directoryChain(cwd), filenames, signal);
  return listed.map((link): ChainLink => {
    if (link.status === 'found' || link.status === 'none') return link;
    const why = link.status === 'invalid' ? link.reason : link.status === 'missing' ? 'not in the tree at this commit' : 'not a directory at this commit';
    return { dir: link.dir, status: 'unavailable', reason: `${link.dir || '.'}: ${why}` };
  });
}

export type ListedDirectory =
  | { dir: string; status: 'found'; path: string; others?: string[] }
  | { dir: string; status: 'none'; others?: string[] }
  | { dir: string; status: 'missing' | 'not-a-directory' }
  | { dir: string; status: 'invalid'; reason: string };

/**
 * Lists directories in parallel and picks, in each, the first of `filenames` present (a file or a
 * symlink); `others` are the paths of the other names present of `filenames` and `also` (names
 * some client reads), in that order, so a file the first one shadows is still seen. An
 * unreadable source leaves the rules unknown: that is a failure, never an absence.
 */
export async function listDirectories(snapshot: Snapshot, dirs: readonly string[], filenames: readonly string[], signal: AbortSignal, also: readonly string[] = []): Promise<ListedDirectory[]> {
  const names = [...new Set([...filenames, ...also])];
  return Promise.all(
    dirs.map(async (dir): Promise<ListedDirectory> => {
      const listing = await snapshot.list(dir, { signal });
      if (listing.status === 'failed') throw new Error(`could not list ${dir || '.'}: ${listing.reason}`);
      if (listing.status === 'missing' || listing.status === 'not-a-directory') return { dir, status: listing.status };
      if (listing.status === 'invalid-path') return { dir, status: 'invalid', reason: listing.reason };
      const present = new Map(listing.entries.filter((e) => e.kind === 'file' || e.kind === 'symlink').map((e) => [e.name, e.path]));
      const name = filenames.find((candidate) => present.has(candidate));
      const path = name === undefined ? undefined : present.get(name);
      const others = names.flatMap((candidate) => (candidate === name ? [] : (present.get(candidate) ?? [])));
      const extra = others.length > 0 ? { others } : {};
      return path === undefined ? { dir, status: 'none', ...extra } : { dir, status: 'found', path, ...extra };
    }),
  );
}
