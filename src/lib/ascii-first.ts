/**
 * @module lib/ascii-first
 * A regular expression with Unicode property classes (`\p{L}`, `\p{Cc}`…) paired with one that
 * spells the same pattern over ASCII, used for text that is all ASCII, as nearly all names,
 * paths and rule text are. V8 compiles a regular expression on its first use and again when it
 * tiers up: a class such as `[\p{L}\p{M}\p{N}]` spans some thousand ranges, and compiling it costs
 * about 0.5 ms each time, more than a short-lived command then spends matching (a session-start
 * hook or `context --json`, issue 56; a cold Worker isolate's first turn alike). The pair is only
 * right when both match the same ASCII strings the same way: test/lib/ascii-first holds each pair
 * to that, over every ASCII character and over generated ASCII strings.
 */

/** All ASCII: a plain class, which compiles in microseconds. */
const ASCII = /^[\x00-\x7f]*$/;

export interface AsciiFirst {
  /** The pattern over ASCII alone: same flags as `unicode`, without `u`. */
  readonly ascii: RegExp;
  readonly unicode: RegExp;
  /** The one to use on `text`. */
  for(text: string): RegExp;
}

export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

export function asciiFirst(ascii: RegExp, unicode: RegExp): AsciiFirst {
  if (ascii.flags.replace('u', '') !== unicode.flags.replace('u', '')) throw new Error(`asciiFirst: /${ascii.source}/${ascii.flags} and /${unicode.source}/${unicode.flags} differ in flags`);
  return { ascii, unicode, for: (text) => (isAscii(text) ? ascii : unicode) };
}
