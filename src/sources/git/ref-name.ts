/**
 * @module sources/git/ref-name
 * Ref names arrive from task requests, configuration and remotes' ref listings. A local ref
 * becomes a file path under the gitdir and a remote one a line in a request, so a name is
 * checked against git's own rules (`git check-ref-format`) before any lookup.
 */

/** Characters git forbids in ref names (`git check-ref-format`), plus control characters. */
const FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

export function isValidRefName(ref: string): boolean {
  if (ref === '' || ref === '@' || FORBIDDEN.test(ref)) return false;
  if (ref.includes('..') || ref.includes('@{') || ref.includes('//')) return false;
  if (ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock')) return false;
  return !ref.split('/').some((part) => part.startsWith('.'));
}
