/**
 * @module sources/git/repository-kind
 * What kind of checkout a git directory is, where that changes what can be read and what a user
 * should do: a shallow clone lacks history, a partial clone lacks objects until git fetches them,
 * and some formats are not read at all (reftable refs, SHA-256 object names).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RepositoryKind {
  shallow: boolean;
  /** The filter of a partial clone (`blob:none`), or `'on'` when one is promised without a filter. */
  partialFilter?: string;
  /** Why this repository cannot be read at all, with what to do. */
  unsupported?: string;
}

export function repositoryKind(common: string): RepositoryKind {
  const config = existsSync(join(common, 'config')) ? readFileSync(join(common, 'config'), 'utf8') : '';
  const setting = (name: string): string | undefined => new RegExp(`^\\s*${name}\\s*=\\s*(\\S+)`, 'mi').exec(config)?.[1];
  const kind: RepositoryKind = { shallow: existsSync(join(common, 'shallow')) };
  const filter = setting('partialclonefilter') ?? (setting('promisor') === 'true' || setting('partialclone') !== undefined ? 'on' : undefined);
  if (filter !== undefined) kind.partialFilter = filter;
  if (setting('objectformat')?.toLowerCase() === 'sha256') {
    kind.unsupported = 'this repository names objects with SHA-256 (extensions.objectFormat), which groundwork does not read yet; use a SHA-1 clone';
  } else if (setting('refstorage')?.toLowerCase() === 'reftable' || existsSync(join(common, 'reftable'))) {
    kind.unsupported = 'this repository keeps its refs in the reftable format, which groundwork does not read yet; convert it with `git refs migrate --ref-format=files`';
  }
  return kind;
}

/** What to say when an object a commit needs is not in the repository. */
export function missingObjectReason(kind: RepositoryKind, root: string, oid: string, what: string): string {
  if (kind.partialFilter !== undefined) {
    return `${what} ${oid} has not been fetched: this is a partial clone (filter ${kind.partialFilter}), and git fetches such objects on demand; fetch it with \`git -C ${root} cat-file -p ${oid} >/dev/null\` (or check the files out), then run again`;
  }
  if (kind.shallow) return `${what} ${oid} is not in this shallow clone; fetch more history with \`git -C ${root} fetch --unshallow\`, then run again`;
  return `${what} ${oid} is missing from the repository (git fsck may say why)`;
}
