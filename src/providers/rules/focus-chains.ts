/**
 * @module providers/rules/focus-chains
 * The instruction files a task's focus brings, at the snapshot's commit: the chains of the
 * working directory and of every focus path (see chain.ts), each directory listed once, and for
 * every file which focus paths it applies to and for which it is the nearest file. A focus path
 * whose directory is not in the tree at this commit (a file a pull request adds in a new
 * directory, a directory not committed yet) takes the chain of its nearest directory that is,
 * and is reported with it.
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { directoryChain, focusDirectories, focusDirectory, listDirectories, type ListedDirectory } from './chain.ts';

export interface FocusInput {
  cwd: string;
  focusPaths: readonly string[];
  /** Focus paths known to name files. */
  focusFiles: readonly string[];
  filenames: readonly string[];
  /** Other names some client reads in a directory (src/clients): found beside the instruction files, never given for them. */
  also?: readonly string[];
  maxDirectories: number;
}

export interface ChainFile {
  dir: string;
  path: string;
  /** On the working directory's chain: every task on this commit and working directory reads it. */
  shared: boolean;
  /** The focus it applies to, in the task's order: the working directory first (`.` for the root), then focus paths. */
  appliesTo: string[];
  /** The focus for which it is the nearest instruction file. */
  nearestFor: string[];
}

/** A file of one of the names in a directory besides its instruction file (shadowed by it, or a name only a client reads). */
export interface OtherFile {
  dir: string;
  path: string;
  /** The directory's instruction file, when it has one. */
  by?: string;
  /** On the working directory's chain. */
  shared: boolean;
}

/** A focus whose own directory is not one at this commit, and the directory whose chain it takes. */
export interface MovedFocus {
  focus: string;
  /** The first directory of its chain that is not a directory at this commit. */
  missing: string;
  why: 'missing' | 'not-a-directory';
  /** Its nearest directory at this commit (`''` is the root). */
  to: string;
  cwd: boolean;
}

export interface FocusChains {
  /** In tree order. */
  files: ChainFile[];
  /** The other names present in the same directories, in tree order. */
  others: OtherFile[];
  moved: MovedFocus[];
  /** Directories past the bound, in tree order. */
  cut: string[];
  /** Directories listed. */
  listed: number;
  /** Directories that could not be listed as named (an invalid path), with why. */
  problems: string[];
}

interface Focus {
  label: string;
  end: string;
  /** May name a file: its chain ends at itself, and a listing that finds a file there is no surprise. */
  maybeFile: boolean;
  cwd: boolean;
}

export async function readFocusChains(snapshot: Snapshot, input: FocusInput, signal: AbortSignal): Promise<FocusChains> {
  const files = new Set(input.focusFiles);
  const focus: Focus[] = [
    { label: input.cwd === '' ? '.' : input.cwd, end: input.cwd, maybeFile: false, cwd: true },
    ...input.focusPaths.map((path) => ({ label: path, end: focusDirectory(path, files), maybeFile: !files.has(path), cwd: false })),
  ];
  const bounded = focusDirectories(input.cwd, input.focusPaths, { files: input.focusFiles, max: input.maxDirectories });
  const listed = await listDirectories(snapshot, bounded.dirs, input.filenames, signal, input.also);
  const byDir = new Map<string, ListedDirectory>(listed.map((link) => [link.dir, link]));

  const appliesTo = new Map<string, string[]>();
  const nearestFor = new Map<string, string[]>();
  const moved: MovedFocus[] = [];
  for (const item of focus) {
    let last = '';
    let nearest: string | undefined;
    for (const dir of directoryChain(item.end)) {
      const link = byDir.get(dir);
      // Past the bound: the chain is read as far as it was kept, and the cut is reported as such.
      if (!link) break;
      if (link.status === 'missing' || link.status === 'not-a-directory') {
        const expected = link.status === 'not-a-directory' && dir === item.end && item.maybeFile;
        if (!expected) moved.push({ focus: item.label, missing: dir, why: link.status, to: last, cwd: item.cwd });
        break;
      }
      if (link.status === 'invalid') break;
      last = dir;
      if (link.status === 'found') {
        push(appliesTo, link.path, item.label);
        nearest = link.path;
      }
    }
    if (nearest !== undefined) push(nearestFor, nearest, item.label);
  }

  const cwdChain = new Set(directoryChain(input.cwd));
  return {
    files: listed.flatMap((link) =>
      link.status === 'found'
        ? [{ dir: link.dir, path: link.path, shared: cwdChain.has(link.dir), appliesTo: appliesTo.get(link.path) ?? [], nearestFor: nearestFor.get(link.path) ?? [] }]
        : [],
    ),
    others: listed.flatMap((link) =>
      link.status === 'found' || link.status === 'none'
        ? (link.others ?? []).map((path): OtherFile => ({ dir: link.dir, path, ...(link.status === 'found' ? { by: link.path } : {}), shared: cwdChain.has(link.dir) }))
        : [],
    ),
    moved,
    cut: bounded.cut,
    listed: listed.length,
    problems: listed.flatMap((link) => (link.status === 'invalid' ? [`${link.dir}: ${link.reason}`] : [])),
  };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}
