/**
 * @module lib/unicode-regexp
 * Regular expressions with Unicode property classes (`\p{L}`, `\p{Cc}`…), made when first needed
 * and passed over for ASCII text. V8 parses such an expression when it is made (a regular
 * expression literal at a module's top level is made as the module is evaluated) and compiles it
 * on its first use and again as it tiers up: a class like `[\p{L}\p{M}\p{N}]` spans some thousand
 * ranges, 0.1 to 0.5 ms each time. A short-lived command (a session-start hook, `context --json`)
 * or a cold Worker isolate paid that for a dozen of them before doing anything (issue 56).
 * - A lone one is made with lib/once: `once(() => /…/u)`, made on first use, then kept.
 * - `asciiFirst`: beside it, the same pattern spelled over ASCII, used for text that is all ASCII
 *   (as nearly all names, paths and rule text are). The pair is only right when both match the
 *   same ASCII strings the same way: test/lib/unicode-regexp holds each pair to that, over every
 *   ASCII character and over generated ASCII strings.
 * - `visibleFirst`: the same for an expression whose Unicode class matches only characters a reader
 *   cannot see or that are not text (controls, format characters, separators, marks, private use,
 *   surrogates, unassigned): its ASCII spelling is used as well for text whose other characters
 *   are all common visible ones (accented letters, Greek, Cyrillic, dashes and quotes, arrows,
 *   symbols, box drawing, CJK), which no such class matches. Prose and rules are full of `—`, `’`
 *   and `→`; an ASCII check alone sent all of it to expressions whose classes ICU builds from its
 *   tables on each parse and compile, some 2 million instructions per general category (issue 56).
 *   test/lib/unicode-regexp checks every character of the common visible set against the
 *   engine's own classes, so a Unicode version that moved one would fail there, not here.
 * test/node/unicode-regexp-lint finds any such expression made at a module's top level.
 */

import { once } from './once.ts';

/** All ASCII: a plain class, which compiles in microseconds. */
const ASCII = /^[\x00-\x7f]*$/;

/** Whether every UTF-16 unit of `text` is ASCII (then its UTF-8 bytes are its units, one each). */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

/**
 * Common visible characters beyond ASCII, all in the Basic Multilingual Plane (so an expression
 * without `u` reads each as one unit, as one with `u` does): Latin-1 without its no-break space and
 * soft hyphen, Latin Extended-A and -B, IPA and spacing modifier letters, the Greek and Cyrillic
 * letters, general punctuation without its spaces, separators and format characters, currency,
 * letterlike symbols and number forms, arrows, mathematical operators, technical symbols, box
 * drawing to dingbats, CJK punctuation without its marks, kana, CJK ideographs, Hangul syllables
 * and the full-width forms.
 */
export const COMMON_VISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0xa1, 0xac], [0xae, 0x2ff], [0x391, 0x3a1], [0x3a3, 0x3ce], [0x400, 0x482], [0x48a, 0x4ff],
  [0x2010, 0x2027], [0x2030, 0x205e], [0x20a0, 0x20bf], [0x2100, 0x2189], [0x2190, 0x23ff], [0x2500, 0x27bf],
  [0x3001, 0x3029], [0x3030, 0x303f], [0x3041, 0x3096], [0x309b, 0x309f], [0x30a1, 0x30ff], [0x4e00, 0x9fff],
  [0xac00, 0xd7a3], [0xff01, 0xff60],
];

const unit = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

/** Common visible characters: plain ranges, which compile in microseconds. */
const VISIBLE = new RegExp(`^[${COMMON_VISIBLE.map(([first, last]) => `${unit(first)}-${unit(last)}`).join('')}]+$`);
const NOT_ASCII = /[^\x00-\x7f]+/g;

/**
 * Whether every character of `text` is ASCII or common visible (see COMMON_VISIBLE). Only its
 * runs of other than ASCII are held to the visible ranges: V8 checks a class of that many ranges
 * with a call per character, some 80 instructions, where ASCII's is a comparison.
 */
export function isAsciiOrVisible(text: string): boolean {
  if (isAscii(text)) return true;
  for (const [run] of text.matchAll(NOT_ASCII)) if (!VISIBLE.test(run)) return false;
  return true;
}

export interface AsciiFirst {
  /** The pattern over ASCII alone: the same flags as the Unicode one, without `u`. */
  readonly ascii: RegExp;
  unicode(): RegExp;
  /** The one to use on `text`. */
  for(text: string): RegExp;
}

export function asciiFirst(ascii: RegExp, unicode: () => RegExp): AsciiFirst {
  const made = checkedUnicode(ascii, unicode);
  return { ascii, unicode: made, for: (text) => (isAscii(text) ? ascii : made()) };
}

/**
 * `asciiFirst` for an expression whose Unicode class matches no common visible character (see the
 * module comment): the ASCII spelling serves text of ASCII and common visible characters.
 */
export function visibleFirst(ascii: RegExp, unicode: () => RegExp): AsciiFirst {
  const made = checkedUnicode(ascii, unicode);
  return { ascii, unicode: made, for: (text) => (isAsciiOrVisible(text) ? ascii : made()) };
}

function checkedUnicode(ascii: RegExp, unicode: () => RegExp): () => RegExp {
  return once(() => {
    const re = unicode();
    if (ascii.flags.replace('u', '') !== re.flags.replace('u', '')) throw new Error(`asciiFirst: /${ascii.source}/${ascii.flags} and /${re.source}/${re.flags} differ in flags`);
    return re;
  });
}
