/**
 * @module context/truncate
 * Cuts text to a token budget with a visible marker that is itself inside the budget. Cuts fall
 * on code point boundaries, so neither a UTF-16 surrogate pair nor (once encoded) a UTF-8
 * sequence is ever split.
 */
import { BYTES_PER_TOKEN, codePointWidth, utf8Length } from './tokens.ts';

export interface Truncation {
  text: string;
  truncated: boolean;
  /** Characters (UTF-16 code units) of the original shown, and the original's total. */
  shown: number;
  total: number;
}

/** The marker that ends a cut body; `label` names what was cut (usually the source path). */
export function truncationMarker(label: string, shown: number, total: number): string {
  return `\n[… truncated by groundwork: ${label} shown ${shown}/${total} chars]`;
}

/**
 * Returns `text` unchanged when it fits `maxTokens`, else its longest prefix that fits together
 * with the marker. Returns `undefined` when not even the marker fits.
 *
 * @example
 * truncateToTokens('a'.repeat(1000), 40, 'README.md')
 * // { text: 'aaa…\n[… truncated by groundwork: README.md shown 92/1000 chars]', truncated: true, shown: 92, total: 1000 }
 */
export function truncateToTokens(text: string, maxTokens: number, label: string): Truncation | undefined {
  const total = text.length;
  const limitBytes = maxTokens * BYTES_PER_TOKEN;
  if (utf8Length(text) <= limitBytes) return { text, truncated: false, shown: total, total };

  // Size the marker for the widest `shown` it could carry, so the real one never overflows.
  const markerBytes = utf8Length(truncationMarker(label, total, total));
  const bodyBytes = limitBytes - markerBytes;
  if (bodyBytes < 0) return undefined;

  const shown = prefixFitting(text, bodyBytes);
  return { text: text.slice(0, shown) + truncationMarker(label, shown, total), truncated: true, shown, total };
}

/** Length in UTF-16 units of the longest code-point prefix of `text` that encodes in `maxBytes`. */
function prefixFitting(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const [size, units] = codePointWidth(text, i);
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += units;
  }
  return i;
}
