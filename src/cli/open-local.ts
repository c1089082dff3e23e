/**
 * @module cli/open-local
 * What `context` and `run` do before assembling: find the repository the user means (by default
 * the one they stand in), pin the ref to a commit, and settle the working directory (by default
 * where they stand in the tree). A `--cwd` that exists only in the working tree (a directory not
 * committed yet) is kept, with a warning: the rules provider reads its nearest committed
 * directory's chain and says so too. A `--cwd` that is nowhere is a usage error.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { revisionProblem } from '../sources/git/ancestry.ts';
import { discoverRepository } from '../sources/git/discover.ts';
import { createLocalGitSource } from '../sources/git/local-source.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import { parentOf } from '../sources/paths.ts';
import { resolveCwdOption } from './cwd-option.ts';

export interface OpenLocalInput {
  /** Path given with --repo; the current directory when absent. */
  repo: string | undefined;
  ref: string;
  /** The option that named `ref`, for errors (`--ref` unless a command pins by another). */
  refOption?: string;
  /** --cwd; when absent, where the user stands inside the working tree. */
  cwd: string | undefined;
  /** Untrusted tasks read no repository content, not even a listing to check --cwd. */
  readTree?: boolean;
  openSource?: (root: string) => RepositorySource;
}

export type OpenedLocal =
  | { ok: true; root: string; bare: boolean; source: RepositorySource; commit: string; cwd: string; warnings: string[] }
  | { ok: false; exit: 1 | 2; error: string };

export async function openLocalRepository(input: OpenLocalInput): Promise<OpenedLocal> {
  const given = input.repo ?? process.cwd();
  const found = discoverRepository(given);
  if (!found.ok) return { ok: false, exit: 1, error: `cannot read ${given}: ${found.reason}` };
  const problem = revisionProblem(input.ref);
  if (problem !== undefined) return { ok: false, exit: 2, error: `${input.refOption ?? '--ref'}: ${problem}` };
  const source = (input.openSource ?? createLocalGitSource)(found.root);
  const resolved = await source.resolve(input.ref);
  if (resolved.status === 'missing') return { ok: false, exit: 1, error: `${input.refOption ?? '--ref'}: ${input.ref} does not name a commit in ${source.repository}` };
  if (resolved.status === 'failed') return { ok: false, exit: 1, error: `cannot read ${given}: ${resolved.reason}` };
  const { commit } = resolved;
  const opened = { ok: true as const, root: found.root, bare: found.bare, source, commit };
  const cwdOption = input.cwd === undefined ? undefined : resolveCwdOption(input.cwd, found.root);
  if (cwdOption?.ok === false) return { ok: false, exit: 2, error: cwdOption.error };
  const cwd = cwdOption?.path;
  if (input.readTree === false) return { ...opened, cwd: cwd ?? found.within, warnings: [] };

  const snapshot = source.snapshot(commit);
  const at = `${input.ref === commit ? commit : `${input.ref} (${commit.slice(0, 12)})`}`;
  if (cwd !== undefined) {
    if (cwd === '') return { ...opened, cwd: '', warnings: [] };
    const listing = await snapshot.list(cwd);
    if (listing.status === 'ok') return { ...opened, cwd, warnings: [] };
    if (listing.status === 'failed') return { ok: false, exit: 1, error: `cannot read ${given}: ${listing.reason}` };
    const parent = await snapshot.list(parentOf(cwd));
    if (parent.status === 'ok' && parent.entries.some((entry) => entry.path === cwd && entry.kind === 'submodule')) {
      return { ok: false, exit: 2, error: `--cwd: ${cwd} is a submodule at ${at}: its files live in its own repository; run with --repo ${found.root}/${cwd}` };
    }
    if (!found.bare && isDirectory(join(found.root, cwd))) {
      const nearest = await nearestCommitted(snapshot, parentOf(cwd));
      return { ...opened, cwd, warnings: [`--cwd ${cwd} is not in the tree at ${at}, only in the working tree: it gets the rules of ${nearest || '.'} as committed`] };
    }
    return { ok: false, exit: 2, error: `--cwd: ${cwd} is not a directory in the tree at ${at}` };
  }
  // Standing in a directory that is not committed (new, or ignored): the nearest one that is.
  for (let dir = found.within; ; dir = parentOf(dir)) {
    if (dir === '') return { ...opened, cwd: '', warnings: found.within === '' ? [] : [notInTree(found.within, '.', at)] };
    const listing = await snapshot.list(dir);
    if (listing.status === 'ok') return { ...opened, cwd: dir, warnings: dir === found.within ? [] : [notInTree(found.within, dir, at)] };
  }
}

/** The deepest of `dir` and its parents that is a directory at the snapshot's commit. */
async function nearestCommitted(snapshot: ReturnType<RepositorySource['snapshot']>, dir: string): Promise<string> {
  for (let at = dir; at !== ''; at = parentOf(at)) if ((await snapshot.list(at)).status === 'ok') return at;
  return '';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function notInTree(within: string, used: string, at: string): string {
  return `the current directory ${within} is not in the tree at ${at}; using ${used} as the working directory`;
}
