/**
 * @module sources/git/discover
 * Finds the repository a path belongs to, as git does: from the path upwards, the first directory
 * that has a `.git` (directory, or a file pointing elsewhere: linked worktree, submodule) or that
 * is itself a git directory (a bare repository, a mirror). Also says where the path sits inside
 * the working tree, so a user standing in `services/auth` gets that directory's rules.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export type DiscoveredRepository =
  | {
      ok: true;
      /** The working tree root, or the git directory itself when bare. */
      root: string;
      bare: boolean;
      /** The starting path relative to the root, `/`-separated; `''` at the root or when bare. */
      within: string;
    }
  | { ok: false; reason: string };

export function discoverRepository(start: string): DiscoveredRepository {
  const from = resolve(start);
  if (!existsSync(from)) return { ok: false, reason: `${from} does not exist` };
  if (!statSync(from).isDirectory()) return { ok: false, reason: `${from} is not a directory` };
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return { ok: true, root: dir, bare: false, within: relative(dir, from).split(sep).join('/') };
    if (isGitDirectory(dir)) return { ok: true, root: dir, bare: true, within: '' };
    if (dirname(dir) === dir) return { ok: false, reason: `not a git repository (nor any parent up to /): ${from}` };
  }
}

/** Git's own test: a HEAD, an objects directory and a refs directory. */
export function isGitDirectory(dir: string): boolean {
  const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();
  const head = join(dir, 'HEAD');
  return existsSync(head) && statSync(head).isFile() && isDir(join(dir, 'objects')) && isDir(join(dir, 'refs'));
}
