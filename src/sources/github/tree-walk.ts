/**
 * @module sources/github/tree-walk
 * Flattens a commit's tree from the GitHub trees API. The normal case is a single recursive
 * request. GitHub truncates a recursive tree past 100,000 entries or 7 MB; then we walk down:
 * list a directory non-recursively and ask for each subdirectory recursively again, descending
 * further only where that answer is also truncated. A huge monorepo thus costs one request per
 * truncated directory plus one per child of it, never one per directory of the whole repository.
 */
import { normalisePath } from '../paths.ts';
import type { TreeEntryKind } from '../snapshot.ts';
import type { FlatTreeEntry } from '../tree-loader.ts';

export interface GitTreeItem {
  path: string;
  mode: string;
  type: string;
  sha: string;
  size?: number | undefined;
}

export interface GitTree {
  truncated: boolean;
  tree: GitTreeItem[];
}

export type FetchTree = (treeish: string, recursive: boolean, signal?: AbortSignal) => Promise<GitTree>;

/** Parallel tree requests during a truncated walk; GitHub penalises bursts with secondary limits. */
const WALK_CONCURRENCY = 6;

export async function loadFlatTree(fetchTree: FetchTree, commit: string, signal?: AbortSignal): Promise<FlatTreeEntry[]> {
  const limit = createLimiter(WALK_CONCURRENCY);
  const walk = async (prefix: string, treeish: string): Promise<FlatTreeEntry[]> => {
    const whole = await limit(() => fetchTree(treeish, true, signal));
    if (!whole.truncated) return toEntries(prefix, whole.tree);
    const level = await limit(() => fetchTree(treeish, false, signal));
    if (level.truncated) throw new Error(`directory '${prefix}' has more entries than the GitHub trees API returns`);
    const own = toEntries(prefix, level.tree);
    const nested = await Promise.all(own.filter((entry) => entry.kind === 'dir').map((dir) => walk(dir.path, dir.oid)));
    return [...own, ...nested.flat()];
  };
  return walk('', commit);
}

/** Git modes: 100644/100755 file, 120000 symlink, 040000 tree, 160000 submodule (a commit). */
export function kindOf(item: GitTreeItem): TreeEntryKind | undefined {
  if (item.type === 'tree') return 'dir';
  if (item.type === 'commit') return 'submodule';
  if (item.type !== 'blob') return undefined;
  return item.mode === '120000' ? 'symlink' : 'file';
}

function toEntries(prefix: string, items: GitTreeItem[]): FlatTreeEntry[] {
  const entries: FlatTreeEntry[] = [];
  for (const item of items) {
    const kind = kindOf(item);
    const path = prefix === '' ? item.path : `${prefix}/${item.path}`;
    // Git never stores `..` or empty segments; an entry that has them is not trusted into the index.
    const normal = normalisePath(path);
    if (!kind || !normal.ok || normal.path !== path) continue;
    const size = kind === 'file' || kind === 'symlink' ? item.size : undefined;
    entries.push({ path, kind, oid: item.sha, ...(size === undefined ? {} : { size }) });
  }
  return entries;
}

function createLimiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
