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
 * test/node/unicode-regexp-lint finds any such expression made at a module's top level.
 */

import { once } from './once.ts';

/** All ASCII: a plain class, which compiles in microseconds. */
const ASCII = /^[\x00-\x7f]*$/;

/** Whether every UTF-16 unit of `text` is ASCII (then its UTF-8 bytes are its units, one each). */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

export interface AsciiFirst {
  /** The pattern over ASCII alone: the same flags as the Unicode one, without `u`. */
  readonly ascii: RegExp;
  unicode(): RegExp;
  /** The one to use on `text`. */
  for(text: string): RegExp;
}

export function asciiFirst(ascii: RegExp, unicode: () => RegExp): AsciiFirst {
  const made = once(() => {
    const re = unicode();
    if (ascii.flags.replace('u', '') !== re.flags.replace('u', '')) throw new Error(`asciiFirst: /${ascii.source}/${ascii.flags} and /${re.source}/${re.flags} differ in flags`);
    return re;
  });
  return { ascii, unicode: made, for: (text) => (isAscii(text) ? ascii : made()) };
}
