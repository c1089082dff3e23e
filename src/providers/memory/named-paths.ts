/**
 * @module providers/memory/named-paths
 * Repository paths a task's request names (`src/auth/session.ts`, `docs/`, `Makefile.am`), so
 * knowledge about them ranks first. A word counts when it holds a `/` or ends in a file
 * extension; URLs, `$skill` and `@mention` words do not. Bounded: a long request cannot make
 * ranking quadratic.
 *
 * @example
 * namedPaths('Fix `src/auth/session.ts` (see docs/deploy.md), then run make.')
 * // ['src/auth/session.ts', 'docs/deploy.md']
 */
import { normalisePath } from '../../sources/paths.ts';

export const MAX_NAMED_PATHS = 32;

const EDGE_PUNCTUATION = /^[`'"“”‘’([{<]+|[`'"“”‘’)\]}>,;:!?.]+$/g;
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;

export function namedPaths(request: string): string[] {
  const found = new Set<string>();
  for (const word of request.split(/\s+/)) {
    if (found.size >= MAX_NAMED_PATHS) break;
    const token = word.replace(EDGE_PUNCTUATION, '');
    if (token === '' || token.includes('://') || /^[$@]/.test(token)) continue;
    if (!token.includes('/') && !FILE_EXTENSION.test(token)) continue;
    const normal = normalisePath(token.replace(/^\.\//, ''));
    if (normal.ok && normal.path !== '') found.add(normal.path);
  }
  return [...found];
}
