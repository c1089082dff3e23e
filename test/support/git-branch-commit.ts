/**
 * @module test/support/git-branch-commit
 * Commits file changes onto a branch of a repository without touching its working tree or its
 * index (plumbing through a temporary index), so a server reading the repository sees the branch
 * move while its checkout stays as it was. Node only (the git CLI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
    for (const [path, content] of Object.entries(files)) {
      if (content === null) git(['update-index', '--force-remove', '--', path]);
      else git(['update-index', '--add', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], content)},${path}`]);
    }
    const commit = git(['commit-tree', git(['write-tree']), '-p', parent, '-m', message]);
    git(['update-ref', `refs/heads/${branch}`, commit, parent]);
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
