/**
 * @module sources/tree-view
 * How a tree snapshot reads a commit's tree: the whole tree loaded once (`flatView`), or directory
 * by directory along the paths asked about (`lazyView`, for loaders that read one tree cheaply),
 * and what a listing can be answered from without another load (`heldListing`).
 *
 * Loads run under the snapshot's own signal (`lifetime`) and are shared by every caller, each of
 * which waits under its own signal: one reader giving up neither cancels them nor is held by them.
 */
import { startShared, untilAborted } from '../lib/abortable.ts';
import type { PartialIndex } from './partial-tree.ts';
import { parentOf } from './paths.ts';
import type { ListResult, TreeEntry } from './snapshot.ts';
import type { FlatTreeEntry, TreeLoader } from './tree-loader.ts';

/** What list and read need from a tree: one entry by path, and the entries of one directory. */
export interface TreeView {
  entry(path: string, signal?: AbortSignal): Promise<FlatTreeEntry | undefined>;
  children(dir: string, signal?: AbortSignal): Promise<TreeEntry[]>;
  /** Whether `entry` and `children` of `dir` are answered without another load. */
  holds(dir: string): boolean;
}

interface TreeIndex {
  byPath: Map<string, FlatTreeEntry>;
  children: Map<string, TreeEntry[]>;
}

/** The view a loader affords: directory by directory when it can read one, else the whole tree. */
export function treeView(loader: TreeLoader, lifetime: AbortSignal | undefined): TreeView {
  return loader.loadDirectory ? lazyView(loader.loadDirectory.bind(loader), lifetime) : flatView(loader, lifetime);
}

/**
 * The listing of the normalised `path` from what is held, with no load: the read-ahead's index
 * (`known`) answers first, with the listing or with the path missing or not a directory; `view`
 * when the view holds the directory (listing it loads nothing); undefined when neither holds it.
 */
export function heldListing(known: PartialIndex | undefined, view: TreeView, path: string): ListResult | 'view' | undefined {
  const listed = known?.children(path);
  if (listed) return { status: 'ok', path, entries: listed };
  const entry = path === '' ? undefined : known?.entry(path);
  if (entry === null) return { status: 'missing', path };
  if (entry && entry.kind !== 'dir') return { status: 'not-a-directory', path };
  return view.holds(path) ? 'view' : undefined;
}

/** The whole tree, loaded once (one request for the GitHub API, one fetch for a remote). */
function flatView(loader: TreeLoader, lifetime: AbortSignal | undefined): TreeView {
  let index: Promise<TreeIndex> | undefined;
  const loadIndex = (signal?: AbortSignal): Promise<TreeIndex> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!index) {
      index = startShared(lifetime, () => loader.loadTree(lifetime)).then(buildIndex);
      // A failed load is not memoised: the next call may succeed.
      index.catch(() => (index = undefined));
    }
    return untilAborted(index, signal);
  };
  return {
    entry: async (path, signal) => (await loadIndex(signal)).byPath.get(path),
    children: async (dir, signal) => (await loadIndex(signal)).children.get(dir) ?? [],
    // Once the whole tree is on its way, every listing comes with it.
    holds: () => index !== undefined,
  };
}

/** Directory by directory, each read once, only along the paths asked about. */
function lazyView(loadDirectory: NonNullable<TreeLoader['loadDirectory']>, lifetime: AbortSignal | undefined): TreeView {
  const directories = new Map<string, Promise<TreeIndex | undefined>>();
  /** Shared by every caller, so it loads under the snapshot's signal. */
  const directory = (dir: string): Promise<TreeIndex | undefined> => {
    let loaded = directories.get(dir);
    if (!loaded) {
      loaded = (async () => {
        lifetime?.throwIfAborted();
        if (dir === '') return buildIndex(await loadDirectory(undefined, '', lifetime));
        const self = await entryOf(dir);
        return self?.kind === 'dir' ? buildIndex(await loadDirectory(self.oid, dir, lifetime)) : undefined;
      })();
      directories.set(dir, loaded);
      loaded.catch(() => directories.delete(dir));
    }
    return loaded;
  };
  const entryOf = async (path: string): Promise<FlatTreeEntry | undefined> => (await directory(parentOf(path)))?.byPath.get(path);
  return {
    holds: (dir) => directories.has(dir) && (dir === '' || directories.has(parentOf(dir))),
    entry: (path, signal) => (signal?.aborted ? Promise.reject(signal.reason) : untilAborted(entryOf(path), signal)),
    children: async (dir, signal) => {
      signal?.throwIfAborted();
      return (await untilAborted(directory(dir), signal))?.children.get(dir) ?? [];
    },
  };
}

function buildIndex(entries: FlatTreeEntry[]): TreeIndex {
  const byPath = new Map<string, FlatTreeEntry>();
  const children = new Map<string, TreeEntry[]>();
  for (const entry of entries) {
    byPath.set(entry.path, entry);
    const dir = parentOf(entry.path);
    const name = entry.path.slice(dir === '' ? 0 : dir.length + 1);
    const listed: TreeEntry = { name, path: entry.path, kind: entry.kind, oid: entry.oid, ...(entry.size === undefined ? {} : { size: entry.size }) };
    const siblings = children.get(dir);
    if (siblings) siblings.push(listed);
    else children.set(dir, [listed]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { byPath, children };
}
