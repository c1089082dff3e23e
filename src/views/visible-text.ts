/**
 * @module views/visible-text
 * Hostile text shown as what it is. Escaping keeps markup inert; this keeps invisible characters
 * from hiding or reordering what a person reads: C0 and C1 controls (but tab and line feed),
 * DEL, format characters (bidirectional overrides and isolates, zero-width spaces, the byte
 * order mark, …), line and paragraph separators and lone surrogates become visible markers.
 * Zero-width joiners stay: emoji and scripts need them.
 *
 * This is the page's one rule: text goes through `visibleParts` (a marker as its own element,
 * `Visible` in text.tsx) or, where markup cannot go (attributes, `<title>`), `visibleText`.
 */

import { hiddenChars } from '../lib/hidden-chars.ts';

export type VisiblePart = { text: string } | { marker: string; title: string };

function marker(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  // Control Pictures (U+2400..) for C0 controls and DEL: ␀ ␛ ␍ ␡.
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * @example
 * visibleParts('a\u202Eb') // [{ text: 'a' }, { marker: 'U+202E', title: 'invisible character U+202E' }, { text: 'b' }]
 */
export function visibleParts(text: string): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let from = 0;
  for (const match of text.matchAll(hiddenChars())) {
    const char = match[0];
    if (char === '\n' || char === '\t') continue;
    if (match.index > from) parts.push({ text: text.slice(from, match.index) });
    const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    parts.push({ marker: marker(char), title: `invisible character U+${code}` });
    from = match.index + char.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}

/**
 * The same text as one string, each hidden character replaced by its marker: for attribute values
 * and `<title>`, where a marker cannot be an element of its own.
 *
 * @example
 * visibleText('a\u202Eb\u001b') // 'aU+202Eb␛'
 */
export function visibleText(text: string): string {
  return visibleParts(text)
    .map((part) => ('text' in part ? part.text : part.marker))
    .join('');
}
