/**
 * @module context/tokens
 * The one token counter every budget uses: `ceil(utf8Bytes / 4)`.
 *
 * Why not a model tokenizer: budgets must be deterministic across Worker, Durable Object and
 * CLI, cheap on 200 KB files, and independent of which model reads the context. Four UTF-8
 * bytes per token slightly over-counts English prose and counts CJK (3 bytes a character) and
 * emoji (4 bytes) conservatively, so a budget is an upper bound rather than a guess.
 */

export const BYTES_PER_TOKEN = 4;

export function countTokens(text: string): number {
  return Math.ceil(utf8Length(text) / BYTES_PER_TOKEN);
}

/** ASCII only: one byte a unit, found natively, which is most files and every cold process's first call. */
const ASCII = /^[\x00-\x7f]*$/;

export function utf8Length(text: string): number {
  if (ASCII.test(text)) return text.length;
  // Every unit is at least one byte; add what each wider code point needs beyond that (as codePointWidth counts).
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2;
      i += 1;
    } else bytes += 2;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
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
    if (isLowSurrogate(text.charCodeAt(i + 1))) return [4, 2];
  }
  return [3, 1];
}
