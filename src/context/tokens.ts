/**
 * @module context/tokens
 * The one token counter every budget uses: `ceil(utf8Bytes / 4)`.
 *
 * Why not a model tokenizer: budgets must be deterministic across Worker, Durable Object and
 * CLI, cheap on 200 KB files, and independent of which model reads the context. Four UTF-8
 * bytes per token slightly over-counts English prose and counts CJK (3 bytes a character) and
 * emoji (4 bytes) conservatively, so a budget is an upper bound rather than a guess.
 */
import { isAscii } from '../lib/unicode-regexp.ts';

export const BYTES_PER_TOKEN = 4;

export function countTokens(text: string): number {
  return Math.ceil(utf8Length(text) / BYTES_PER_TOKEN);
}

const encoder = new TextEncoder();

/**
 * The platform encoder's count, so there is one definition of the widths: a lone surrogate is
 * the 3 bytes of the U+FFFD it writes. Native either way, where a loop over the characters runs
 * interpreted in a cold process (3 ms of a one-file CLI run). ASCII text, most files, is one byte a
 * unit, found natively.
 */
export function utf8Length(text: string): number {
  return isAscii(text) ? text.length : encoder.encode(text).byteLength;
}

/**
 * UTF-8 bytes and UTF-16 units of the code point starting at `i`. A lone surrogate counts as the
 * 3 bytes of the U+FFFD that TextEncoder writes for it.
 */
export function codePointWidth(text: string, i: number): [bytes: number, units: number] {
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return [1, 1];
  if (unit < 0x800) return [2, 1];
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [4, 2];
  }
  return [3, 1];
}
