/**
 * @module cli/cwd-option
 * `--cwd` as a user types it: a path inside the repository, either relative to its root or
 * absolute (what a shell's `$PWD` or tab completion gives). An absolute path is made relative to
 * the repository's root, through symlinks on either side (`/tmp` and `/private/tmp` are one
 * place); one outside the repository is refused with a line that says so.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { normalisePath } from '../sources/paths.ts';

export type CwdOption = { ok: true; path: string } | { ok: false; error: string };

/**
 * The repository-relative working directory `--cwd value` names in the repository at `root`.
 *
 * @example
 * resolveCwdOption('/work/app/services/auth', '/work/app') // { ok: true, path: 'services/auth' }
 * resolveCwdOption('/etc', '/work/app')                   // { ok: false, error: '--cwd: /etc is outside the repository /work/app' }
 */
export function resolveCwdOption(value: string, root: string): CwdOption {
  if (!isAbsolute(value)) {
    const normal = normalisePath(value);
    return normal.ok ? normal : { ok: false, error: `--cwd: ${normal.reason}` };
  }
  const inside = relative(real(root), real(resolve(value)));
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return { ok: false, error: `--cwd: ${value} is outside the repository ${root}` };
  }
  const normal = normalisePath(inside.split(sep).join('/'));
  return normal.ok ? normal : { ok: false, error: `--cwd: ${value}: ${normal.reason}` };
}

/** The path with symlinks resolved as far as it exists (a directory absent from the working tree may still be in the commit). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = resolve(path, '..');
    return parent === path ? path : resolve(real(parent), relative(parent, path));
  }
}
