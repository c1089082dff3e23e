/**
 * @module lib/hidden-chars
 * Characters a person cannot see or that reorder what they read: C0 and C1 controls, DEL, line
 * and paragraph separators, format characters (bidirectional overrides and isolates,
 * zero-width spaces, the byte order mark, …), except ZWNJ and ZWJ, which emoji and scripts need,
 * and lone surrogates (half a pair, which no encoding can carry: UTF-8 would turn it into U+FFFD).
 * Pages show each as a marker; bounds on what a page shows count a marker for what it costs.
 */
import { once } from './once.ts';

/** Every hidden character, global: use with `matchAll`. Tab and line feed are matched too; callers keep them. */
export const hiddenChars = once(() => /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu);

const oneHidden = once(() => /^(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]$/u);

/** Whether one character (a code point) is shown as a marker: hidden, and neither tab nor line feed. */
export function isHidden(char: string): boolean {
  return char !== '\n' && char !== '\t' && oneHidden().test(char);
}
