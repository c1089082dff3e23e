/**
 * @module sources/git/object-loader
 * The TreeLoader both isomorphic-git sources share: once the objects of a commit are reachable
 * through some fs (a local `.git`, or a shallow fetch held in memory), walking the tree and
 * reading blobs is the same code.
 */
import type { FsClient } from 'isomorphic-git';
import { normalisePath } from '../paths.ts';
import { isoFromEpochSeconds } from '../commit-info.ts';
import type { CommitInfo } from '../snapshot.ts';
import { isomorphicGit } from './isomorphic-git.ts';
import { kindOfMode } from './tree-mode.ts';
import type { FlatTreeEntry, TreeLoader } from '../tree-snapshot.ts';

export interface GitObjectStore {
  fs: FsClient;
  gitdir: string;
  /** isomorphic-git's pack cache; share one per repository so packs are parsed once. */
  cache: object;
}

/**
 * Reads every entry under `commit`'s root tree. Sizes are left out: isomorphic-git can only
 * learn a blob's size by inflating it, and listings must not cost a read of every file.
 */
export async function walkCommitTree(store: GitObjectStore, commit: string, signal?: AbortSignal): Promise<FlatTreeEntry[]> {
  const { readTree } = await isomorphicGit();
  const entries: FlatTreeEntry[] = [];
  const walk = async (treeOid: string, prefix: string): Promise<void> => {
    signal?.throwIfAborted();
    const { tree } = await readTree({ ...store, oid: treeOid });
    const subtrees: Promise<void>[] = [];
    for (const item of tree) {
      const kind = kindOfMode(item.mode);
      const path = prefix === '' ? item.path : `${prefix}/${item.path}`;
      // A crafted tree may name an entry `..` or put a backslash in it; such a path could
      // never be read back safely, so it is left out of the listing altogether.
      const normal = normalisePath(path);
      if (!kind || !normal.ok || normal.path !== path) continue;
      entries.push({ path, kind, oid: item.oid });
      if (kind === 'dir') subtrees.push(walk(item.oid, path));
    }
    await Promise.all(subtrees);
  };
  // readTree peels a commit (or tag) oid to its root tree.
  await walk(commit, '');
  return entries;
}

/** `objects` yields the store on demand (a local gitdir to locate, a remote commit to fetch). */
export function createGitObjectLoader(objects: (signal?: AbortSignal) => Promise<GitObjectStore>, commit: string): TreeLoader {
  return {
    loadTree: async (signal) => walkCommitTree(await objects(signal), commit, signal),
    async loadBlob(oid, signal) {
      const store = await objects(signal);
      signal?.throwIfAborted();
      const { readBlob } = await isomorphicGit();
      const { blob } = await readBlob({ ...store, oid });
      return blob;
    },
    async loadCommit(signal) {
      const store = await objects(signal);
      signal?.throwIfAborted();
      return readCommitInfo(store, commit);
    },
  };
}

/** A shallow fetch holds the commit object itself, so this works for remote snapshots too. */
async function readCommitInfo(store: GitObjectStore, commit: string): Promise<CommitInfo> {
  const { readCommit } = await isomorphicGit();
  const { commit: object } = await readCommit({ ...store, oid: commit });
  return {
    commit,
    tree: object.tree,
    parents: object.parent,
    committedAt: isoFromEpochSeconds(object.committer.timestamp),
    authoredAt: isoFromEpochSeconds(object.author.timestamp),
  };
}
