/**
 * @module context/focus
 * A task's focus paths: what it touches besides its working directory. The paths a host names
 * (`paths` on `POST /tasks`, the CLI's `--path`), a pull request's changed files (the first
 * {@link FOCUS_LIMITS}`.pullRequestFiles`, in GitHub's order, base side of a rename), and paths
 * recorded on the task later (`POST /tasks/:id/paths`). Pure: the host reads, this decides.
 *
 * @example
 * focusPathsOf('packages/api', [['packages/web'], ['packages/api', 'docs/a.md', 'docs/a.md']])
 * // ['packages/web', 'docs/a.md']
 */
import { normalisePath } from '../sources/paths.ts';
import type { PullRequestFile } from '../sources/pull-requests.ts';

export const FOCUS_LIMITS = {
  /** Paths one host request names: `POST /tasks`, the CLI's `--path`, one `POST /tasks/:id/paths`. */
  named: 64,
  /** A pull request's changed files followed, in GitHub's order. */
  pullRequestFiles: 300,
  /** Paths recorded on a task after it was created, every post together. */
  posted: 256,
  /** Characters of one path, as a working directory may have. */
  pathChars: 1024,
  /** Directories whose instruction files are read for one turn. */
  directories: 64,
} as const;

/** The focus paths: every group in order, each path once, the working directory and the root left out (every chain holds them). */
export function focusPathsOf(cwd: string, groups: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>([cwd, '']);
  const paths: string[] = [];
  for (const group of groups) {
    for (const path of group) {
      if (seen.has(path)) continue;
      seen.add(path);
      paths.push(path);
    }
  }
  return paths;
}

export interface PullRequestFocus {
  /** Normalised repository paths, base side for renames and copies, at most `FOCUS_LIMITS.pullRequestFiles`. */
  paths: string[];
  /**
   * Changed files past the bound. Not `exact` when GitHub's listing stopped before the end and the
   * trigger knew no total: then at least `count` (which may be 0) were left out.
   */
  leftOut: { count: number; exact: boolean };
  /** Paths GitHub listed that are not a path inside the tree here (a backslash, say): not followed. */
  unusable: number;
}

/**
 * The focus a pull request's listed files give: the first files in GitHub's order. A deleted or
 * renamed file is followed where it was, at the base the rules are read at; an added file where
 * it will be (its directory may not exist yet, which the rules provider says).
 *
 * @param reported how many files GitHub said the pull request changes, when the trigger knew
 */
export function pullRequestFocus(files: readonly PullRequestFile[], complete: boolean, reported?: number): PullRequestFocus {
  const paths: string[] = [];
  let unusable = 0;
  for (const file of files.slice(0, FOCUS_LIMITS.pullRequestFiles)) {
    const normal = normalisePath(file.previousPath ?? file.path);
    if (normal.ok && normal.path !== '') paths.push(normal.path);
    else unusable++;
  }
  const past = Math.max(0, files.length - FOCUS_LIMITS.pullRequestFiles);
  if (complete) return { paths, leftOut: { count: past, exact: true }, unusable };
  const counted = reported === undefined ? 0 : reported - FOCUS_LIMITS.pullRequestFiles;
  return { paths, leftOut: counted > past ? { count: counted, exact: true } : { count: past, exact: false }, unusable };
}
