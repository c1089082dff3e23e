/**
 * @module sources/git/ref-name
 * Ref names arrive from task requests and configuration. isomorphic-git turns a ref into file
 * paths under the gitdir, so a name is checked against git's own rules before any lookup.
 */

/** Characters git forbids in ref names (`git check-ref-format`), plus control characters. */
const FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

export function isValidRefName(ref: string): boolean {
  if (ref === '' || ref === '@' || FORBIDDEN.test(ref)) return false;
  if (ref.includes('..') || ref.includes('@{') || ref.includes('//')) return false;
  if (ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock')) return false;
  return !ref.split('/').some((part) => part.startsWith('.'));
}
