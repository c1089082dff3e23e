/**
 * @module cli/worktree-snapshot
 * The working tree on disk behind the Snapshot interface, so the rules chain and skill discovery
 * can be run on what the user has edited and compared with what was committed. Never rendered:
 * it only feeds warnings. Paths are confined as in every source; `.git` is not part of the tree.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readdirAsync, readFileAsync } from '../sources/git/fs-callbacks.ts';
import { normalisePath } from '../sources/paths.ts';
import type { CommitInfoResult, ListResult, ReadResult, Snapshot, TreeEntry } from '../sources/snapshot.ts';

export function createWorktreeSnapshot(root: string, commit: string): Snapshot {
  const pathOf = (path: string): string => join(root, ...path.split('/').filter((part) => part !== ''));
  return {
    repository: `worktree:${root}`,
    commit,
    uri: (path) => `file://${pathOf(path)}`,

    async list(dir): Promise<ListResult> {
      const normal = normalisePath(dir);
      if (!normal.ok) return { status: 'invalid-path', path: dir, reason: normal.reason };
      try {
        const items = await readdirAsync(pathOf(normal.path));
        const entries = items
          .filter((item) => !(normal.path === '' && item.name === '.git'))
          .map((item): TreeEntry | undefined => {
            const kind = item.isDirectory() ? 'dir' : item.isFile() ? 'file' : item.isSymbolicLink() ? 'symlink' : undefined;
            return kind ? { name: item.name, path: normal.path === '' ? item.name : `${normal.path}/${item.name}`, kind } : undefined;
          })
          .filter((entry): entry is TreeEntry => entry !== undefined)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return { status: 'ok', path: normal.path, entries };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return { status: 'missing', path: normal.path };
        if (code === 'ENOTDIR') return { status: 'not-a-directory', path: normal.path };
        return { status: 'failed', path: normal.path, reason: String(error) };
      }
    },

    async read(path, { maxBytes }): Promise<ReadResult> {
      const normal = normalisePath(path);
      if (!normal.ok) return { status: 'invalid-path', path, reason: normal.reason };
      try {
        const bytes = await readFileAsync(pathOf(normal.path));
        const shown = bytes.subarray(0, maxBytes);
        return { status: 'ok', path: normal.path, text: shown.toString('utf8'), size: bytes.length, truncated: shown.length < bytes.length, blob: blobId(bytes) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing', path: normal.path };
        if (code === 'EISDIR') return { status: 'not-a-file', path: normal.path, kind: 'dir' };
        return { status: 'failed', path: normal.path, reason: String(error) };
      }
    },

    async commitInfo(): Promise<CommitInfoResult> {
      return { status: 'failed', reason: 'a working tree has no commit object' };
    },
  };
}

/** The id `git hash-object` gives these bytes (no clean filters), so it compares with committed blobs. */
function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
