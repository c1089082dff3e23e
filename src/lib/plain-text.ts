/**
 * @module lib/plain-text
 * Someone else's short text (a check's name, a status description, a login) made safe to keep
 * and show on one line: control characters become spaces, runs of space collapse, and it is cut
 * to a bound (never inside a surrogate pair).
 *
 * @example
 * plainText('build\n\u001b[31mfailed', 20) // 'build [31mfailed'
 */
export function plainText(text: string, max: number): string {
  const line = text.replace(/\p{Cc}+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = Array.from(line.slice(0, max));
  // Slicing may have split a surrogate pair; Array.from keeps the lone half as its own item.
  if (/[\uD800-\uDBFF]$/.test(cut.at(-1) ?? '')) cut.pop();
  return `${cut.join('').slice(0, max - 1)}…`;
}
