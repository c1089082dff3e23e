/**
 * @module test/support/git-branch-commit
 * Commits file changes onto a branch of a repository without touching its working tree or its
 * index (plumbing through a temporary index), so a server reading the repository sees the branch
 * move while its checkout stays as it was. Node only (the git CLI).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { gitEnv } from './git-fixtures.ts';

/**
 * Writes (text) or deletes (null) files on `branch` as one commit; returns the new commit id. A
 * branch that does not exist is made at `from` first.
 */
export function commitToBranch(repoDir: string, branch: string, files: Record<string, string | null>, message = 'change', from?: string): string {
  const scratch = mkdtempSync(join(tmpdir(), 'groundwork-index-'));
  const env = { ...gitEnv(), GIT_INDEX_FILE: join(scratch, 'index') };
  const git = (args: string[], input?: string) => execFileSync('git', ['-C', repoDir, ...args], { env, input, encoding: 'utf8' }).trim();
  try {
    const tip = (ref: string): string | undefined => {
      try {
        return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) || undefined;
      } catch {
        return undefined;
      }
    };
    if (from !== undefined && tip(`refs/heads/${branch}`) === undefined) git(['update-ref', `refs/heads/${branch}`, tip(from) ?? from]);
    const parent = git(['rev-parse', '--verify', `refs/heads/${branch}^{commit}`]);
    git(['read-tree', parent]);
    // Two git processes for the whole change, whatever its size (a pull request of 3,000 files):
    // the blobs written in one `hash-object`, the index changed in one `update-index`.
    // Each distinct content is written once, however many paths hold it.
    const entries = Object.entries(files);
    const contents = [...new Set(entries.flatMap(([, content]) => (content === null ? [] : [content])))];
    const blobs = contents.map((content, i) => {
      const file = join(scratch, `blob-${i}`);
      writeFileSync(file, content);
      return file;
    });
    const ids = blobs.length === 0 ? [] : git(['hash-object', '-w', '--stdin-paths'], `${blobs.join('\n')}\n`).split('\n');
    const blobOf = new Map(contents.map((content, i) => [content, ids[i] ?? '']));
    const index = new Map(entries.flatMap(([path, content]) => (content === null ? [] : [[path, blobOf.get(content) ?? ''] as const])));
    // NUL-terminated, so any path a test names (a tab, a newline) is taken as written.
    const records = entries.map(([path]) => `${index.has(path) ? `100644 ${index.get(path)}` : `0 ${'0'.repeat(40)}`}\t${path}\0`);
    if (records.length > 0) git(['update-index', '-z', '--index-info'], records.join(''));
    const commit = git(['commit-tree', git(['write-tree']), '-p', parent, '-m', message]);
    git(['update-ref', `refs/heads/${branch}`, commit, parent]);
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
