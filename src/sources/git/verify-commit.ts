/**
 * @module sources/git/verify-commit
 * What a local repository holds of one commit: the commit, each tree under it, and each blob they
 * name (by the pack index or the loose file's name, without reading it). `groundwork run` serves
 * the commit to the Worker, so it asks before it starts anything. Without the commit or a tree
 * nothing can be listed: that is one clear line naming the objects, not a pack the Worker's git
 * client calls corrupted. A file whose blob is absent (a partial clone's unfetched large file, one
 * deleted from the store) is only named: the rest is served, and a provider that needs the file
 * says it could not read it, as `groundwork context` does.
 */
import { errorMessage } from './errors.ts';
import { kindOfMode } from './tree-mode.ts';
import { parseTree } from './tree-object.ts';
import { openObjectDatabase } from './object-db.ts';
import { missingObjectReason, repositoryKind, type RepositoryKind } from './repository-kind.ts';

/** Missing objects named in a reason or warning; the rest are counted. */
const MAX_NAMED = 5;

interface MissingObject {
  oid: string;
  what: 'tree' | 'file';
  path: string;
}

export type CommitCheck =
  /** Why the commit cannot be served at all. */
  | { ok: false; problem: string }
  /** Servable; `warning` names the files whose content is not in the repository, and `absent` their blob ids. */
  | { ok: true; warning?: string; absent: string[] };

/** What of `commit` the repository can serve. `root` is for the advice. */
export function checkCommit(gitdir: string, root: string, commit: string): CommitCheck {
  const kind = repositoryKind(gitdir);
  if (kind.unsupported) return { ok: false, problem: kind.unsupported };
  const db = openObjectDatabase(gitdir);
  const trees: MissingObject[] = [];
  const files: MissingObject[] = [];
  try {
    const head = db.read(commit);
    if (!head) return { ok: false, problem: missingObjectReason(kind, root, commit, 'commit') };
    const tree = /^tree ([0-9a-f]{40})$/m.exec(Buffer.from(head.data).toString('latin1'))?.[1];
    if (head.type !== 'commit' || tree === undefined) return { ok: false, problem: `${commit} is not a readable commit (git fsck may say why)` };
    const pending: Array<[string, string]> = [[tree, '']];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [oid, path] = next;
      const object = db.read(oid);
      if (!object || object.type !== 'tree') {
        trees.push({ oid, what: 'tree', path: path || '.' });
        continue;
      }
      for (const entry of parseTree(object.data)) {
        const entryPath = path === '' ? entry.name : `${path}/${entry.name}`;
        const entryKind = kindOfMode(entry.mode);
        if (entryKind === 'dir') pending.push([entry.oid, entryPath]);
        else if ((entryKind === 'file' || entryKind === 'symlink') && !db.has(entry.oid)) files.push({ oid: entry.oid, what: 'file', path: entryPath });
      }
    }
  } catch (error) {
    return { ok: false, problem: `commit ${commit} cannot be read: ${errorMessage(error)}` };
  }
  if (trees.length > 0) return { ok: false, problem: treesMissing(kind, root, commit, trees) };
  if (files.length === 0) return { ok: true, absent: [] };
  return { ok: true, warning: filesMissing(kind, root, commit, files), absent: files.map((file) => file.oid) };
}

function treesMissing(kind: RepositoryKind, root: string, commit: string, trees: MissingObject[]): string {
  const [first] = trees;
  if (first && (kind.partialFilter !== undefined || kind.shallow)) return `commit ${commit} cannot be served: ${missingObjectReason(kind, root, first.oid, first.what)} (${first.path})`;
  const count = trees.length === 1 ? '1 tree it needs is' : `${trees.length} trees it needs are`;
  return `commit ${commit} cannot be served: ${count} missing from the repository: ${named(trees)} (git fsck may say why; fetching or cloning again repairs it)`;
}

/**
 * @example
 * // 'this partial clone (filter blob:limit=4096) has not fetched 2 files of 0748ae9d6412: assets/a.bin (blob 02c93dd75089),
 * //  assets/b.bin (blob 829f7b533866). The rest is served; a provider that needs one of them says it could not read it (…)'
 */
function filesMissing(kind: RepositoryKind, root: string, commit: string, files: MissingObject[]): string {
  const count = `${files.length} file${files.length === 1 ? '' : 's'} of ${commit.slice(0, 12)}`;
  const served = 'The rest is served; a provider that needs one of them says it could not read it';
  if (kind.partialFilter !== undefined) {
    return `this partial clone (filter ${kind.partialFilter}) has not fetched ${count}: ${named(files)}. ${served} (to serve them too, check them out, or run \`git -C ${root} cat-file -p <blob> >/dev/null\` for each)`;
  }
  return `${count} ${files.length === 1 ? 'is' : 'are'} missing from the repository: ${named(files)}. ${served} (git fsck may say why; fetching or cloning again repairs it)`;
}

function named(objects: MissingObject[]): string {
  const listed = objects.slice(0, MAX_NAMED).map((object) => (object.what === 'file' ? `${object.path} (blob ${object.oid.slice(0, 12)})` : `tree ${object.oid} (${object.path})`));
  return `${listed.join(', ')}${objects.length > MAX_NAMED ? ` and ${objects.length - MAX_NAMED} more` : ''}`;
}
