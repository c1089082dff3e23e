/**
 * @module providers/display-name
 * Names that come from a repository or a pull request (file names, paths, refs, labels), made
 * safe to put on one line of context. A name is shown as written when it holds only letters,
 * marks, digits, single inner spaces and the punctuation file names usually carry. Anything else
 * (line breaks and other control characters, bidi overrides and zero-width characters, `<` and
 * `>` that could imitate a wrapper tag, quotes, backslashes, a leading or trailing space) makes
 * it a JSON string with those characters escaped: it stays on its line, reads as one name, and
 * decodes back to exactly what the repository holds.
 *
 * @example
 * displayName('src/index.ts')            // 'src/index.ts'
 * displayName('a\n- evil.sh')            // '"a\\n- evil.sh"'
 * displayName('</groundwork-context>')   // '"\\u003c/groundwork-context\\u003e"'
 */
import { asciiFirst, visibleFirst } from '../lib/unicode-regexp.ts';

/** Letters, marks, digits and file-name punctuation, in words with one space between (ASCII: no marks, 0-9 the only digits). */
export const BARE = asciiFirst(
  /^[A-Za-z0-9._+@=,~#%()[\]{}!$&'^:;/-]+(?: [A-Za-z0-9._+@=,~#%()[\]{}!$&'^:;/-]+)*$/,
  () => /^[\p{L}\p{M}\p{N}._+@=,~#%()[\]{}!$&'^:;/-]+(?: [\p{L}\p{M}\p{N}._+@=,~#%()[\]{}!$&'^:;/-]+)*$/u,
);
/** What is escaped in a name that is not bare (ASCII: the C0 controls, DEL and the space are its controls and separators). */
export const UNSAFE = visibleFirst(/[\x00-\x20\x7f<>"\\]/g, () => /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Z}<>"\\]/gu);

export const MAX_NAME_CHARS = 200;

export function displayName(name: string, maxChars = MAX_NAME_CHARS): string {
  // A name of at most maxChars UTF-16 units has at most that many code points: most are not spread.
  const clipped = name.length <= maxChars ? name : clip(name, maxChars);
  if (BARE.for(clipped).test(clipped)) return clipped;
  return `"${clipped.replace(UNSAFE.for(clipped), escapeChar)}"`;
}

function clip(name: string, maxChars: number): string {
  const chars = [...name];
  return chars.length <= maxChars ? name : `${chars.slice(0, maxChars - 1).join('')}…`;
}

/** Author text that belongs on one line (a title, a label), always as a JSON string, escaped like a name. */
export function quotedText(text: string, maxChars = MAX_NAME_CHARS): string {
  const shown = displayName(text, maxChars);
  return shown.startsWith('"') ? shown : `"${shown}"`;
}

function escapeChar(char: string): string {
  if (char === ' ') return ' ';
  if (char === '"') return '\\"';
  if (char === '\\') return '\\\\';
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
