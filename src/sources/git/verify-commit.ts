/**
 * @module sources/git/verify-commit
 * Whether a local repository holds every object of one commit: the commit, each tree under it,
 * and each blob they name (by the pack index or the loose file's name, without reading it).
 * `groundwork run` serves the whole commit to the Worker, so it asks before it starts anything:
 * a repository with objects missing (deleted, a truncated pack) is then one clear line naming
 * the objects and the commit, not a pack the Worker's git client calls corrupted, retried for
 * 15 seconds. A partial clone is not missing what git fetches on demand, so its blobs are not
 * asked for.
 */
import { errorMessage } from './errors.ts';
import { kindOfMode } from './tree-mode.ts';
import { parseTree } from './tree-object.ts';
import { openObjectDatabase } from './object-db.ts';
import { missingObjectReason, repositoryKind } from './repository-kind.ts';

/** Missing objects named in a reason; the rest are counted. */
const MAX_NAMED = 5;

/** Why the repository cannot serve `commit` whole, or undefined when it can. `root` is for the advice. */
export function commitProblem(gitdir: string, root: string, commit: string): string | undefined {
  const kind = repositoryKind(gitdir);
  if (kind.unsupported) return kind.unsupported;
  const db = openObjectDatabase(gitdir);
  const missing: Array<{ oid: string; what: string; path: string }> = [];
  try {
    const head = db.read(commit);
    if (!head) return missingObjectReason(kind, root, commit, 'commit');
    const tree = /^tree ([0-9a-f]{40})$/m.exec(Buffer.from(head.data).toString('latin1'))?.[1];
    if (head.type !== 'commit' || tree === undefined) return `${commit} is not a readable commit (git fsck may say why)`;
    const pending: Array<[string, string]> = [[tree, '']];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [oid, path] = next;
      const object = db.read(oid);
      if (!object || object.type !== 'tree') {
        missing.push({ oid, what: 'tree', path: path || '.' });
        continue;
      }
      for (const entry of parseTree(object.data)) {
        const entryPath = path === '' ? entry.name : `${path}/${entry.name}`;
        const entryKind = kindOfMode(entry.mode);
        if (entryKind === 'dir') pending.push([entry.oid, entryPath]);
        else if ((entryKind === 'file' || entryKind === 'symlink') && kind.partialFilter === undefined && !db.has(entry.oid)) missing.push({ oid: entry.oid, what: 'file', path: entryPath });
      }
    }
  } catch (error) {
    return `commit ${commit} cannot be read: ${errorMessage(error)}`;
  }
  if (missing.length === 0) return undefined;
  const [first] = missing;
  if (kind.partialFilter !== undefined || kind.shallow) return first ? `commit ${commit} cannot be served: ${missingObjectReason(kind, root, first.oid, first.what)} (${first.path})` : undefined;
  const named = missing.slice(0, MAX_NAMED).map((object) => `${object.what} ${object.oid} (${object.path})`);
  const more = missing.length > MAX_NAMED ? ` and ${missing.length - MAX_NAMED} more` : '';
  const count = missing.length === 1 ? '1 object it needs is' : `${missing.length} objects it needs are`;
  return `commit ${commit} cannot be served: ${count} missing from the repository: ${named.join(', ')}${more} (git fsck may say why; fetching or cloning again repairs it)`;
}
