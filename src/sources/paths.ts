/**
 * @module sources/paths
 * Path normalisation shared by every source: whatever a caller or a repository file names,
 * the result is a `/`-separated path inside the tree, or a reason it is not one.
 */

export type NormalisedPath = { ok: true; path: string } | { ok: false; reason: string };

/** Segments, none empty, `.` or `..`, with no NUL or backslash, joined by single slashes (or nothing: the root). */
const ALREADY_NORMAL = /^(?:(?!\.\.?(?:\/|$))[^/\0\\]+(?:\/(?!\.\.?(?:\/|$))[^/\0\\]+)*)?$/;
const DRIVE_LETTER = /^[A-Za-z]:/;

/**
 * Normalises a repository-relative path. `''` (or `.`) is the root.
 *
 * @example
 * normalisePath('docs/./guide/')      // { ok: true, path: 'docs/guide' }
 * normalisePath('docs/../../etc')     // { ok: false, reason: 'path escapes the repository root' }
 */
export function normalisePath(input: string): NormalisedPath {
  // Nearly every path a turn reads is normal already (a tree's own entries, the plan's paths): one
  // native match answers it, where splitting and joining ran in V8's interpreter for each of a
  // turn's hundreds of reads (issue 56). Anything else takes the steps below.
  if (ALREADY_NORMAL.test(input) && !DRIVE_LETTER.test(input)) return { ok: true, path: input };
  return normaliseByStep(input);
}

/** The steps for any spelling: what `normalisePath` answers, fast path or not (test/node/paths). */
export function normaliseByStep(input: string): NormalisedPath {
  if (input.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  if (input.includes('\\')) return { ok: false, reason: 'path contains a backslash' };
  if (input.startsWith('/')) return { ok: false, reason: 'path is absolute' };
  if (DRIVE_LETTER.test(input)) return { ok: false, reason: 'path has a drive letter' };
  const parts: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return { ok: false, reason: 'path escapes the repository root' };
      parts.pop();
      continue;
    }
    parts.push(segment);
  }
  return { ok: true, path: parts.join('/') };
}

/** Directory part of a normalised path (`''` for a top-level name). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

/** Joins a normalised directory and a relative path, then normalises the result. */
export function joinPath(dir: string, relative: string): NormalisedPath {
  return normalisePath(dir === '' ? relative : `${dir}/${relative}`);
}
