/**
 * @module providers/system/inventory
 * What is in the repository at the pinned commit, by name: the top level, the working
 * directory, and the recognised project files (manifests, lock files, READMEs, ...) in every
 * directory from the root down to the working directory, with their sizes. Nothing is rendered
 * from any file's content; a file is read only to learn its size when the source's listing
 * does not carry one (the git sources), and only for the few project files.
 *
 * Bounded: at most `maxNames` lines per directory and per project-file list, then `+N more`.
 * Names are repository text and go through `displayName`.
 */
import type { ListResult, Snapshot, TreeEntry } from '../../sources/snapshot.ts';
import { displayName } from '../display-name.ts';
import { directoryChain } from '../rules/chain.ts';

export interface InventoryOptions {
  maxNames: number;
  isProjectFile: (name: string) => boolean;
}

/** The inventory's text; throws when the root itself cannot be listed. */
export async function buildInventory(snapshot: Snapshot, cwd: string, options: InventoryOptions, signal: AbortSignal): Promise<string> {
  const chain = directoryChain(cwd);
  const listings = await Promise.all(chain.map((dir) => snapshot.list(dir, { signal })));
  const [root] = listings;
  if (root?.status !== 'ok') throw new Error(`the root could not be listed: ${root ? describeListing(root) : 'no listing'}`);

  const sections = [section(cwd === '' ? 'Top level (also the working directory)' : 'Top level', root.entries, options.maxNames, (entry) => entry.name)];
  if (cwd !== '') {
    const here = listings[listings.length - 1];
    const label = `Working directory ${displayName(cwd)}`;
    sections.push(here?.status === 'ok' ? section(label, here.entries, options.maxNames, (entry) => entry.name) : `${label}: ${here ? describeListing(here) : 'not listed'}`);
  }

  const found = listings.flatMap((listing) =>
    listing.status === 'ok' ? listing.entries.filter((entry) => (entry.kind === 'file' || entry.kind === 'symlink') && options.isProjectFile(entry.name)) : [],
  );
  const projectFiles = await withSizes(snapshot, found.slice(0, options.maxNames), signal);
  const where = cwd === '' ? 'at the root' : `from the root to ${displayName(cwd)}`;
  sections.push(
    projectFiles.length === 0
      ? `Project files ${where}: none recognised.`
      : section(`Project files ${where}`, projectFiles, options.maxNames, (entry) => entry.path, { total: found.length, noun: ['file', 'files'], note: ', not loaded' }),
  );
  return sections.join('\n\n');
}

interface Count {
  total: number;
  noun: readonly [string, string];
  note: string;
}

function section(label: string, entries: readonly TreeEntry[], maxNames: number, name: (entry: TreeEntry) => string, count?: Count): string {
  const { total, noun, note } = count ?? { total: entries.length, noun: ['entry', 'entries'], note: '' };
  const shown = entries.slice(0, maxNames);
  const lines = [`${label} (${total} ${total === 1 ? noun[0] : noun[1]}${note}):`, ...shown.map((entry) => `- ${line(name(entry), entry)}`)];
  if (total > shown.length) lines.push(`+${total - shown.length} more`);
  return lines.join('\n');
}

function line(name: string, entry: TreeEntry): string {
  const shown = displayName(name);
  switch (entry.kind) {
    case 'dir':
      return `${shown}/`;
    case 'symlink':
      return `${shown} (symlink)`;
    case 'submodule':
      return `${shown} (submodule)`;
    case 'file':
      return entry.size === undefined ? shown : `${shown} (${entry.size} bytes)`;
  }
}

/**
 * Fills in sizes the listing lacks: from the source's object headers where it can tell (a local
 * pack: workers-sdk's 1 MB `pnpm-lock.yaml` was inflated whole, delta chain and all, for its
 * size), else by reading zero bytes of the file (the read reports the blob's size).
 */
async function withSizes(snapshot: Snapshot, entries: readonly TreeEntry[], signal: AbortSignal): Promise<TreeEntry[]> {
  return Promise.all(
    entries.map(async (entry): Promise<TreeEntry> => {
      if (entry.kind !== 'file' || entry.size !== undefined) return entry;
      const size = await snapshot.fileSize?.(entry.path, { signal });
      if (size !== undefined) return { ...entry, size };
      const read = await snapshot.read(entry.path, { maxBytes: 0, signal });
      return read.status === 'ok' || read.status === 'binary' ? { ...entry, size: read.size } : entry;
    }),
  );
}

function describeListing(listing: Exclude<ListResult, { status: 'ok' }>): string {
  switch (listing.status) {
    case 'missing':
      return 'not in the tree at this commit';
    case 'not-a-directory':
      return 'not a directory at this commit';
    case 'invalid-path':
    case 'failed':
      return listing.reason;
  }
}
