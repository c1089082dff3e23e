/**
 * @module sources/git/gitdir
 * Finds where a working tree keeps its git data (a bare repository is its own). Besides a plain `.git` directory, a `.git`
 * file points elsewhere: a submodule's gitdir, or a linked worktree (`git worktree add`, common
 * for coding agents), whose HEAD is its own but whose objects and refs live in the main
 * repository's `commondir`. Both are resolved here once.
 */
import { join, resolve as resolvePath } from 'node:path';
import { gitErrorCode } from './errors.ts';

/** The part of `fs.promises` this needs; Node's fits. */
export interface ReadablePromiseFs {
  readFile(path: string, options?: unknown): Promise<unknown>;
}

export type GitdirLocation =
  | { ok: true; /** Objects and shared refs. */ gitdir: string; /** This working tree's HEAD. */ headGitdir: string }
  | { ok: false; reason: string };

export async function locateGitdir(fs: ReadablePromiseFs, root: string): Promise<GitdirLocation> {
  const dotgit = join(root, '.git');
  let headGitdir: string;
  const pointer = await readText(fs, dotgit);
  if (pointer === 'directory') headGitdir = dotgit;
  else if (pointer === undefined) {
    // A bare repository or mirror is its own git directory.
    if ((await readText(fs, join(root, 'HEAD'))) !== undefined && (await readText(fs, join(root, 'objects'))) === 'directory') return { ok: true, gitdir: root, headGitdir: root };
    return { ok: false, reason: `not a git repository: ${root} has no .git` };
  }
  else {
    const target = /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
    if (!target) return { ok: false, reason: `not a git repository: ${dotgit} is a file without a gitdir line` };
    headGitdir = resolvePath(root, target);
  }
  const common = await readText(fs, join(headGitdir, 'commondir'));
  const gitdir = typeof common === 'string' ? resolvePath(headGitdir, common.trim()) : headGitdir;
  return { ok: true, gitdir, headGitdir };
}

/** File text, `'directory'` for a directory, undefined when absent. */
async function readText(fs: ReadablePromiseFs, path: string): Promise<string | undefined> {
  try {
    return String(await fs.readFile(path, 'utf8'));
  } catch (error) {
    const code = gitErrorCode(error);
    if (code === 'EISDIR') return 'directory';
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
