/**
 * @module providers/rules/lints/lines
 * Where in a file a lint's cause is: the line of a frontmatter key, of a glob, of an `@` reference.
 * Lines are 1-based, as editors and CI annotations count them. Only the first
 * {@link MAX_SCANNED_LINES} lines are looked at: a cause past them gets no line rather than a scan
 * of a hostile file.
 */
const MAX_SCANNED_LINES = 5_000;

function lines(text: string): string[] {
  return text.split('\n', MAX_SCANNED_LINES);
}

/** The line of `key:` inside the frontmatter that opens the file (line 1 is the opening `---`). */
export function keyLine(text: string, key: string): number | undefined {
  const all = lines(text);
  if (all[0]?.replace(/\r$/, '') !== '---') return undefined;
  const pattern = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`);
  for (let i = 1; i < all.length; i++) {
    const line = all[i]?.replace(/\r$/, '') ?? '';
    if (line === '---') return undefined;
    if (pattern.test(line)) return i + 1;
  }
  return undefined;
}

/** The first line holding `needle` (after `from`, 1-based), when one does. */
export function lineOf(text: string, needle: string, from = 1): number | undefined {
  const all = lines(text);
  for (let i = Math.max(0, from - 1); i < all.length; i++) if (all[i]?.includes(needle)) return i + 1;
  return undefined;
}

/** The line a frontmatter problem names (`… (line 4)`), else the opening line. */
export function problemLine(problem: string): number {
  const match = /\(line (\d+)\)/.exec(problem);
  const line = match ? Number.parseInt(match[1] ?? '1', 10) : 1;
  return Number.isSafeInteger(line) && line > 0 ? line : 1;
}
