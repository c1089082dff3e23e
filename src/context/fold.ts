/**
 * @module context/fold
 * Text as a lenient reader sees it, for recognising wrapper labels however they are spelled:
 * compatibility forms folded (NFKD: full-width `＜`, small `﹤`, circled and mathematical
 * letters), case folded, combining marks, format characters (zero-width, soft hyphen, bidi
 * controls, tags, variation selectors), other default-ignorable characters and controls dropped,
 * and the look-alikes of `<` and `/` that NFKD keeps apart mapped to them. Folding is per code
 * point, so what a code point folds to never depends on its neighbours.
 */
import { visibleFirst } from '../lib/unicode-regexp.ts';

/** Characters read as `<` that no normalisation maps there (from Unicode's confusables). */
const LESS_THAN_LOOKALIKES = [0x02c2, 0x1438, 0x16b2, 0x2039, 0x2329, 0x276e, 0x27e8, 0x3008];
/** The only characters whose NFKD contains `<` (≮, ﹤, ＜); test/security checks the list. */
export const LESS_THAN_DECOMPOSITIONS = [0x226e, 0xfe64, 0xff1c];
/** Every character that folds to something containing `<`. */
export const LESS_THAN_FORMS = String.fromCodePoint(0x3c, ...LESS_THAN_DECOMPOSITIONS, ...LESS_THAN_LOOKALIKES);

/** Characters read as `<` or `/` that no normalisation maps there (from Unicode's confusables). */
const LOOKALIKES: ReadonlyMap<number, string> = new Map([
  ...LESS_THAN_LOOKALIKES.map((code) => [code, '<'] as const),
  ...[0x1735, 0x2044, 0x2215, 0x2571, 0x27cb, 0x29f8, 0x2f03, 0x3033, 0x30ce, 0x31d3, 0x4e3f].map((code) => [code, '/'] as const),
]);

/** Marks, format and other default-ignorable characters, and controls: what folding drops. */
export const INVISIBLE = visibleFirst(/[\x00-\x1f\x7f]/g, () => /[\p{Mn}\p{Me}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]/gu);
const WHITESPACE_CONTROL = /[\t\n\v\f\r]/;

/** Folds already computed; bounded, since a hostile text can name many distinct code points. */
const folds = new Map<number, string>();
const MAX_CACHED = 20_000;

/** The folded form of one code point (possibly empty). */
export function foldCodePoint(code: number): string {
  if (code < 0x80) {
    const char = String.fromCharCode(code);
    if (code < 0x20 || code === 0x7f) return WHITESPACE_CONTROL.test(char) ? char : '';
    return char.toLowerCase();
  }
  let folded = folds.get(code);
  if (folded === undefined) {
    const direct = LOOKALIKES.get(code);
    const decomposed = direct ?? withoutInvisible(String.fromCodePoint(code).normalize('NFKD').toLowerCase().normalize('NFKD'));
    folded = [...decomposed].map((char) => LOOKALIKES.get(char.codePointAt(0) ?? 0) ?? char).join('');
    if (folds.size >= MAX_CACHED) folds.clear();
    folds.set(code, folded);
  }
  return folded;
}

function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE.for(text), '');
}

const PLAIN = /^[\t\n\v\f\r\x20-\x7e]*$/;
const NOT_PLAIN = /[^\t\n\v\f\r\x20-\x7e]/gu;

/**
 * The whole text folded, code point by code point.
 *
 * @example
 * foldText('\uFF1C/Groundwork') // '</groundwork'
 * foldText('<\u200b/x')         // '</x'
 */
export function foldText(text: string): string {
  // Folded code points are already lower case, so lowering the whole result is the same as
  // lowering only the plain characters, and faster.
  const folded = PLAIN.test(text) ? text : text.replace(NOT_PLAIN, (char) => foldCodePoint(char.codePointAt(0) ?? 0));
  return folded.toLowerCase();
}
