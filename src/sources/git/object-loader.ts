/**
 * @module sources/git/object-loader
 * The TreeLoader over a commit's objects held in memory (the pack a remote sent, indexed by
 * pack-index.ts): the commit's root tree walked to a flat listing, blobs read by id. An object a
 * tree names that the pack does not hold (no object in it hashes to that id) or that is of
 * another type fails the read with a {@link PermanentSourceError}: the server sent a pack that
 * does not match its own commit, and will send the same one again.
 */
import { normalisePath } from '../paths.ts';
import { parseCommitObject } from '../commit-info.ts';
import { PermanentSourceError } from '../permanent.ts';
import type { CommitInfo } from '../snapshot.ts';
import type { ObjectType, RawObject } from './pack-entry.ts';
import { kindOfMode } from './tree-mode.ts';
import { parseTree } from './tree-object.ts';
import type { FlatTreeEntry, TreeLoader } from '../tree-loader.ts';

export interface GitObjectStore {
  /** The object whose bytes hash to `oid`, or undefined when the store lacks it. */
  read(oid: string): RawObject | undefined;
}

/**
 * Reads every entry under `commit`'s root tree. Sizes are left out, as for every git loader: a
 * listing must not cost a read of every file.
 */
export function walkCommitTree(store: GitObjectStore, commit: string, signal?: AbortSignal): FlatTreeEntry[] {
  const entries: FlatTreeEntry[] = [];
  const pending: Array<[string, string]> = [[readCommitInfo(store, commit).tree, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    signal?.throwIfAborted();
    const [treeOid, prefix] = next;
    let items;
    try {
      items = parseTree(need(store, treeOid, 'tree').data);
    } catch (error) {
      if (error instanceof PermanentSourceError) throw error;
      throw new PermanentSourceError(`tree ${treeOid} from the server does not parse: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const item of items) {
      const kind = kindOfMode(item.mode);
      const path = prefix === '' ? item.name : `${prefix}/${item.name}`;
      // A crafted tree may name an entry `..` or put a backslash in it; such a path could
      // never be read back safely, so it is left out of the listing altogether.
      const normal = normalisePath(path);
      if (!kind || !normal.ok || normal.path !== path) continue;
      entries.push({ path, kind, oid: item.oid });
      if (kind === 'dir') pending.push([item.oid, path]);
    }
  }
  return entries;
}

/** `objects` yields the store on demand (a remote commit to fetch). */
export function createGitObjectLoader(objects: (signal?: AbortSignal) => Promise<GitObjectStore>, commit: string): TreeLoader {
  return {
    loadTree: async (signal) => walkCommitTree(await objects(signal), commit, signal),
    async loadBlob(oid, signal) {
      const store = await objects(signal);
      signal?.throwIfAborted();
      return need(store, oid, 'blob').data;
    },
    async loadCommit(signal) {
      const store = await objects(signal);
      signal?.throwIfAborted();
      return readCommitInfo(store, commit);
    },
  };
}

function readCommitInfo(store: GitObjectStore, commit: string): CommitInfo {
  const object = need(store, commit, 'commit');
  try {
    return parseCommitObject(commit, new TextDecoder().decode(object.data));
  } catch (error) {
    throw new PermanentSourceError(`commit ${commit} from the server does not parse: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function need(store: GitObjectStore, oid: string, type: ObjectType): RawObject {
  const object = store.read(oid);
  if (!object) throw new PermanentSourceError(`the server's pack holds no ${type} ${oid} (no object in it hashes to that id)`);
  if (object.type !== type) throw new PermanentSourceError(`${oid} is a ${object.type} in the server's pack, not a ${type}`);
  return object;
}
