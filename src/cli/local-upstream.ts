/**
 * @module cli/local-upstream
 * The branch a local repository is on and the upstream it pushes to, as git records them
 * (`HEAD`, and `branch.<name>.remote` / `branch.<name>.merge` in the repository's config), and
 * the remote-tracking ref that holds the upstream as the last fetch saw it
 * (`refs/remotes/<remote>/<branch>`, git's default fetch mapping). Nothing is fetched: the answer
 * is as old as the last `git fetch`.
 */
import { join } from 'node:path';
import { gitdirFs, readSmallText } from '../sources/git/small-files.ts';
import { locateGitdir } from '../sources/git/gitdir.ts';

export type Upstream =
  /**
   * `tracking`: the ref to resolve, e.g. `refs/remotes/origin/main`; `label` names it as git shows
   * it (`origin/main`); `remoteBranch` is the branch's name on the remote (`main`).
   */
  | { ok: true; branch: string; tracking: string; label: string; remoteBranch: string }
  | { ok: false; reason: string };

/** A config file this large is not one git wrote for a working repository. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export async function localUpstream(root: string, branch: string | undefined): Promise<Upstream> {
  const where = await locateGitdir(gitdirFs, root);
  if (!where.ok) return where;
  let name = branch;
  if (name === undefined) {
    const current = await headBranch(where.headGitdir);
    if (current === undefined) return { ok: false, reason: 'HEAD is not on a branch (detached): name the branch with --branch' };
    name = current;
  }
  const config = parseBranchConfig((await readSmall(join(where.gitdir, 'config'))) ?? '', name);
  const merge = config.merge === undefined ? undefined : /^refs\/heads\/(.+)$/.exec(config.merge)?.[1];
  if (config.remote === undefined || merge === undefined) return { ok: false, reason: `${name} has no upstream (branch.${name}.remote and branch.${name}.merge are not set): nothing to compare with` };
  // `.` is this repository: the branch tracks another local branch.
  if (config.remote === '.') return { ok: true, branch: name, tracking: `refs/heads/${merge}`, label: merge, remoteBranch: merge };
  return { ok: true, branch: name, tracking: `refs/remotes/${config.remote}/${merge}`, label: `${config.remote}/${merge}`, remoteBranch: merge };
}

/** The branch checked out in the working tree at `root`, or undefined when HEAD is detached or unreadable. */
export async function checkedOutBranch(root: string): Promise<string | undefined> {
  const where = await locateGitdir(gitdirFs, root);
  return where.ok ? headBranch(where.headGitdir) : undefined;
}

async function headBranch(headGitdir: string): Promise<string | undefined> {
  const head = await readSmall(join(headGitdir, 'HEAD'));
  return head === undefined ? undefined : /^ref: refs\/heads\/(.+?)\s*$/.exec(head)?.[1];
}

/**
 * `OWNER/NAME` of the GitHub repository the branch's upstream remote (else `origin`) points at,
 * as `https://github.com/OWNER/NAME(.git)`, `git@github.com:OWNER/NAME(.git)` or
 * `ssh://git@github.com/OWNER/NAME(.git)`; undefined for any other host or no such remote.
 */
export async function githubRepositoryOf(root: string, branch: string | undefined): Promise<string | undefined> {
  const where = await locateGitdir(gitdirFs, root);
  if (!where.ok) return undefined;
  const text = (await readSmall(join(where.gitdir, 'config'))) ?? '';
  const name = branch ?? (await headBranch(where.headGitdir));
  const remote = (name === undefined ? undefined : parseBranchConfig(text, name).remote) ?? 'origin';
  const url = parseSectionValue(text, 'remote', remote, 'url');
  const match = url === undefined ? null : /^(?:https:\/\/(?:[^@/]+@)?github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/i.exec(url);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/** `key` of `[section "subsection"]` in a git config file: the subsection is case-sensitive, the rest is not. */
function parseSectionValue(text: string, section: string, subsection: string, key: string): string | undefined {
  let inside = false;
  let found: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)[#;].*$/, '').trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (header) {
      inside = header[1]?.toLowerCase() === section && (header[2] ?? '').replace(/\\(.)/g, '$1') === subsection;
      continue;
    }
    const pair = inside ? /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line) : null;
    if (pair && pair[1]?.toLowerCase() === key) found = (pair[2] ?? '').replace(/^"(.*)"$/, '$1');
  }
  return found;
}

/** `remote` and `merge` of `[branch "<name>"]`: section names are case-insensitive, the branch name is not. */
export function parseBranchConfig(text: string, name: string): { remote?: string; merge?: string } {
  const found: { remote?: string; merge?: string } = {};
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)[#;].*$/, '').trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (section) {
      inside = section[1]?.toLowerCase() === 'branch' && (section[2] ?? '').replace(/\\(.)/g, '$1') === name;
      continue;
    }
    if (!inside) continue;
    const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!pair) continue;
    const key = pair[1]?.toLowerCase();
    const value = (pair[2] ?? '').replace(/^"(.*)"$/, '$1');
    if (key === 'remote') found.remote = value;
    if (key === 'merge') found.merge = value;
  }
  return found;
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    return readSmallText(path, MAX_CONFIG_BYTES);
  } catch {
    return undefined;
  }
}
