/**
 * @module cli/terminal-text
 * What the human view may send to a terminal. Repository text (AGENTS.md, skill names and
 * descriptions, file names in warnings) can carry escape sequences that retitle the window,
 * clear the screen or rewrite lines already printed, and invisible format characters that hide
 * text from the person reading while the model still reads it. Each such character is shown as a
 * visible `\u{…}` escape instead. Line feeds, tabs and CR LF line ends stay; ZWJ and ZWNJ stay,
 * because scripts and emoji need them. `--json` is not passed through here: a machine reading it
 * needs the exact text, which `json-output` escapes the JSON way (`\u202e`), keeping the value.
 */
import { visibleFirst } from '../lib/unicode-regexp.ts';

// C0 and C1 controls, DEL, format characters (bidi controls, zero-width, soft hyphen, tags),
// and the line and paragraph separators; a CR only when it does not end a CR LF line.
export const UNSAFE = visibleFirst(/\r(?!\n)|(?![\n\t\r])[\x00-\x1f\x7f]/g, () => /\r(?!\n)|(?![\n\t\r\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu);

/**
 * @example
 * terminalText('title\x1b]0;pwned\x07') // 'title\\u{1b}]0;pwned\\u{7}'
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE.for(text), (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`);
}
