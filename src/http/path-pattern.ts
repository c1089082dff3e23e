/**
 * @module http/path-pattern
 * Whether a URL path matches a route pattern, segment by segment: `:name` is any one non-empty
 * segment, a final `*` one or more further segments, anything else itself. The Worker's entry
 * picks a route group with it before loading Hono (index.ts), and the group's own router then
 * routes precisely; a path no pattern matches goes to the group that answers 404.
 *
 * @example
 * matchesPath('/tasks/:id/view', '/tasks/abc/view') // true
 * matchesPath('/tasks/*', '/tasks')                 // false: `*` needs a segment
 */
export function matchesPath(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const have = path.split('/');
  const rest = want.at(-1) === '*';
  if (rest ? have.length < want.length : have.length !== want.length) return false;
  return want.every((segment, i) => {
    const actual = have[i] ?? '';
    if (rest && i === want.length - 1) return have.slice(i).some((part) => part !== '');
    if (segment.startsWith(':')) return actual !== '';
    return segment === actual;
  });
}
