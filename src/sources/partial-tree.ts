/**
 * @module sources/partial-tree
 * Part of a commit's tree, as a read-ahead fetched it: the complete listings of some
 * directories, some entries found by path, and paths known to be absent. It answers what it
 * knows and says `unknown` for the rest, which the snapshot then asks the whole tree about.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { CommitInfoSchema } from './commit-info.ts';
import { normalisePath, parentOf } from './paths.ts';
import type { CommitInfo, TreeEntry } from './snapshot.ts';
import type { FlatTreeEntry } from './tree-loader.ts';

/** A path as a tree holds it: normalised already. */
function isNormalPath(path: string): boolean {
  const normal = normalisePath(path);
  return normal.ok && normal.path === path;
}

const Path = lazySchema(() => z.string().refine(isNormalPath));

const ENTRY_KINDS: ReadonlySet<unknown> = new Set(['file', 'dir', 'symlink', 'submodule']);

/**
 * A tree entry as a cache holds it: a normalised, non-empty path, a kind, an object id, a size when
 * known. Checked by hand rather than as a zod object: a cached read-ahead holds hundreds of entries
 * and a cached whole tree thousands (Node 22, `safeParse` of an array: 150 entries 4.2 -> 0.6 ms
 * the first time in a process and 0.74 -> 0.28 after; 10,000 entries 45.5 -> 14.1 and 14.1 -> 11.3,
 * the rest `normalisePath`; issue 56). A value that fails is a cache miss, so it needs no message.
 */
export function isCachedTreeEntry(value: unknown): value is FlatTreeEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { path, kind, oid, size } = value as Record<string, unknown>;
  if (typeof path !== 'string' || path === '' || !ENTRY_KINDS.has(kind) || typeof oid !== 'string' || oid === '') return false;
  if (size !== undefined && !(Number.isSafeInteger(size) && (size as number) >= 0)) return false;
  return isNormalPath(path);
}

/** Entries are kept as stored (a key the cache's writer never writes stays on the object). */
export const CachedTreeEntrySchema = lazySchema(() => z.custom<FlatTreeEntry>(isCachedTreeEntry, 'not a tree entry'));

export const PartialTreeSchema = lazySchema(() => z.object({
  /** Directories listed completely, with every entry. */
  dirs: z.array(z.object({ path: Path, entries: z.array(CachedTreeEntrySchema) })),
  /** Entries known by path whose directory was not listed. */
  entries: z.array(CachedTreeEntrySchema),
  /** Paths known not to exist at this commit. */
  absent: z.array(Path),
  /** The commit object's facts, when the read-ahead brought them along. */
  commit: CommitInfoSchema.optional(),
}));
export type PartialTree = z.output<typeof PartialTreeSchema>;

/** `undefined` means the partial tree does not know; `null` means the path does not exist. */
export interface PartialIndex {
  entry(path: string): FlatTreeEntry | null | undefined;
  /** The sorted listing of a directory listed completely, else undefined. */
  children(dir: string): TreeEntry[] | undefined;
  commit?: CommitInfo;
}

export function indexPartialTree(tree: PartialTree): PartialIndex {
  const listed = new Map<string, FlatTreeEntry[]>(tree.dirs.map((dir) => [dir.path, dir.entries]));
  const byPath = new Map<string, FlatTreeEntry>();
  for (const entry of [...tree.entries, ...tree.dirs.flatMap((dir) => dir.entries)]) byPath.set(entry.path, entry);
  const absent = new Set(tree.absent);

  const entry = (path: string): FlatTreeEntry | null | undefined => {
    if (path === '') return undefined;
    const known = byPath.get(path);
    if (known) return known;
    if (absent.has(path)) return null;
    // The nearest listed ancestor decides: a missing child, or a child that is not a directory, ends the path.
    const parts = path.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const dir = parts.slice(0, depth).join('/');
      if (!listed.has(dir)) continue;
      const child = byPath.get(parts.slice(0, depth + 1).join('/'));
      if (!child) return null;
      if (child.kind !== 'dir' && depth + 1 < parts.length) return null;
      return depth + 1 === parts.length ? child : undefined;
    }
    return undefined;
  };

  // Each listing made once: a turn's providers list the same directories many times, and a
  // commit's listing never changes (shared as the full tree's listings are, sources/tree-view).
  const listings = new Map<string, TreeEntry[]>();
  return {
    entry,
    ...(tree.commit ? { commit: tree.commit } : {}),
    children(dir) {
      const made = listings.get(dir);
      if (made) return made;
      const listing = listed
        .get(dir)
        ?.map((child): TreeEntry => ({ name: child.path.slice(dir === '' ? 0 : dir.length + 1), path: child.path, kind: child.kind, ...(child.size === undefined ? {} : { size: child.size }) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (listing) listings.set(dir, listing);
      return listing;
    },
  };
}

/**
 * Two parts of one commit's tree as one: every directory either listed, every entry and absent
 * path either knew. A commit is immutable, so the two never disagree; where both listed a
 * directory, the first's listing is kept.
 */
export function mergePartialTrees(a: PartialTree, b: PartialTree): PartialTree {
  const dirs = new Map(a.dirs.map((dir) => [dir.path, dir]));
  for (const dir of b.dirs) if (!dirs.has(dir.path)) dirs.set(dir.path, dir);
  const entries = new Map(a.entries.map((entry) => [entry.path, entry]));
  for (const entry of b.entries) if (!entries.has(entry.path)) entries.set(entry.path, entry);
  const commit = a.commit ?? b.commit;
  return { dirs: [...dirs.values()], entries: [...entries.values()], absent: [...new Set([...a.absent, ...b.absent])], ...(commit ? { commit } : {}) };
}

/** Whether every listed entry really sits in its directory; a read-ahead answer is checked before use. */
export function isConsistent(tree: PartialTree): boolean {
  return tree.dirs.every((dir) => dir.entries.every((entry) => parentOf(entry.path) === dir.path));
}
