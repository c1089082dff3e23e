/**
 * @module providers/skills/bundled-files
 * Progressive disclosure for a selected skill: the files bundled in its directory (`scripts/`,
 * `references/`, `assets/`, ...) by path and size, so the model knows what it can read next
 * without any of them being loaded. Built from `Snapshot.list` alone: no file is read, and a
 * size is shown only where the source's listing carries one.
 *
 * The walk is breadth first with each level sorted, bounded in depth and in directories
 * listed; the lines shown prefer shallow entries (depth, then path) and are printed in path
 * order, so the same commit gives the same listing. Symlinks and submodules are shown as such
 * and never followed.
 */
import type { Snapshot, TreeEntryKind } from '../../sources/snapshot.ts';
import { displayName } from '../display-name.ts';

export interface BundledLimits {
  /** Lines shown, and directories listed. */
  maxFiles: number;
  /** Levels below the skill's directory whose entries are shown. */
  maxDepth: number;
}

export interface BundledFile {
  /** Relative to the skill's directory. */
  path: string;
  kind: TreeEntryKind;
  size?: number;
  /** Why a directory's entries are not shown. */
  unlisted?: 'depth' | 'limit' | 'failed';
}

export interface BundledListing {
  /** The skill's directory (`''` at the repository root). */
  dir: string;
  /** Every entry found, shallowest first, then by path. */
  files: BundledFile[];
  /** Set when the skill's directory itself could not be listed. */
  failure?: string;
}

export async function listBundledFiles(snapshot: Snapshot, skillPath: string, limits: BundledLimits, signal: AbortSignal): Promise<BundledListing> {
  const dir = skillPath.includes('/') ? skillPath.slice(0, skillPath.lastIndexOf('/')) : '';
  const files: BundledFile[] = [];
  const relative = (path: string) => (dir === '' ? path : path.slice(dir.length + 1));
  let listed = 0;
  let level = [dir];
  for (let depth = 1; level.length > 0; depth++) {
    signal.throwIfAborted();
    const admitted = level.slice(0, Math.max(0, limits.maxFiles - listed));
    for (const skipped of level.slice(admitted.length)) files.push({ path: relative(skipped), kind: 'dir', unlisted: 'limit' });
    listed += admitted.length;
    const listings = await Promise.all(admitted.map((path) => snapshot.list(path, { signal })));

    const [top] = listings;
    if (depth === 1 && top && top.status !== 'ok') return { dir, files, failure: 'reason' in top ? top.reason : top.status };

    const next: string[] = [];
    listings.forEach((listing, i) => {
      if (listing.status !== 'ok') {
        files.push({ path: relative(admitted[i] ?? ''), kind: 'dir', unlisted: 'failed' });
        return;
      }
      for (const entry of listing.entries) {
        if (entry.path === skillPath) continue;
        if (entry.kind !== 'dir') files.push({ path: relative(entry.path), kind: entry.kind, ...(entry.size === undefined ? {} : { size: entry.size }) });
        else if (depth < limits.maxDepth) next.push(entry.path);
        else files.push({ path: relative(entry.path), kind: 'dir', unlisted: 'depth' });
      }
    });
    level = next.sort(comparePaths);
  }
  files.sort((a, b) => depthOf(a.path) - depthOf(b.path) || comparePaths(a.path, b.path));
  return { dir, files };
}

/**
 * The listing as text with at most `lines` entries, in path order, and a last line counting
 * the rest; undefined when nothing is bundled.
 */
export function renderBundledFiles(listing: BundledListing, lines: number, maxDepth: number): string | undefined {
  const where = listing.dir === '' ? 'the repository root' : `${listing.dir}/`;
  if (listing.failure !== undefined) return `Files bundled with this skill in ${where}: could not be listed (${listing.failure}).`;
  if (listing.files.length === 0) return undefined;
  const shown = listing.files.slice(0, lines).sort((a, b) => comparePaths(a.path, b.path));
  const hidden = listing.files.slice(shown.length);
  const out = [`Files bundled with this skill in ${where} (not loaded; paths relative to it, read one when the instructions call for it):`];
  for (const file of shown) out.push(`- ${fileLine(file, maxDepth)}`);
  if (hidden.length > 0) out.push(`+${hidden.length} more${hiddenUnder(hidden)}`);
  return out.join('\n');
}

/** Where the entries left out live, when that is a few top-level directories. */
function hiddenUnder(hidden: readonly BundledFile[]): string {
  if (hidden.some((file) => !file.path.includes('/'))) return '';
  const dirs = [...new Set(hidden.map((file) => file.path.slice(0, file.path.indexOf('/'))))].sort(comparePaths);
  return dirs.length <= 5 ? ` under ${dirs.map((dir) => `${displayName(dir)}/`).join(', ')}` : '';
}

function fileLine(file: BundledFile, maxDepth: number): string {
  const path = displayName(file.path);
  switch (file.kind) {
    case 'file':
      return file.size === undefined ? path : `${path} (${file.size} bytes)`;
    case 'symlink':
      return `${path} (symlink)`;
    case 'submodule':
      return `${path} (submodule)`;
    case 'dir':
      if (file.unlisted === 'depth') return `${path}/ (directory, not listed: deeper than ${maxDepth} ${maxDepth === 1 ? 'level' : 'levels'})`;
      if (file.unlisted === 'failed') return `${path}/ (directory, could not be listed)`;
      return `${path}/ (directory, not listed)`;
  }
}

function depthOf(path: string): number {
  let depth = 1;
  for (const char of path) if (char === '/') depth++;
  return depth;
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
