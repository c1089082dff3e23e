/**
 * @module context/escape
 * Keeps repository text inside its section. Wrapper labels are `groundwork-*`; any character
 * that reads as the `<` opening or closing one becomes `&lt;`, however the label is spelled:
 * any case, spacing or slashes between, compatibility forms (`＜／ＧＲＯＵＮＤＷＯＲＫ`), look-alikes
 * (`‹`, `〈`, `⁄`), and invisible or format characters anywhere inside (see fold.ts).
 * Other text, code included, is left as written. Sections also carry a boundary that their text
 * never contains (see section.ts), so even a spelling no fold anticipates cannot close one.
 */
import { visibleFirst } from '../lib/unicode-regexp.ts';
import { foldCodePoint, LESS_THAN_FORMS } from './fold.ts';

const PREFIX = 'groundwork';
/** The characters that fold to `<`; only these can start a label. */
const READS_AS_LT = new RegExp(`[${LESS_THAN_FORMS}]`, 'gu');

/**
 * Every code point that reads as `<` and, read leniently, is followed by any spaces and slashes
 * and then `groundwork`, becomes `&lt;`. Only code points that fold to `<` start a look ahead,
 * and a look ahead ends at the first character that cannot continue a label.
 *
 * @example
 * escapeSectionText('a \uFF1C/groundwork-context> b') // 'a &lt;/groundwork-context> b'
 */
export function escapeSectionText(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(READS_AS_LT)) {
    const char = match[0];
    const folded = char === '<' ? '<' : foldCodePoint(char.codePointAt(0) ?? 0);
    const lt = folded.lastIndexOf('<');
    const next = match.index + char.length;
    if (lt >= 0 && labelFollows(folded.slice(lt + 1), text, next)) {
      out += `${text.slice(from, match.index)}&lt;`;
      from = next;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether `pending` and the text from `start`, folded, read as spaces or slashes, then `groundwork`. */
function labelFollows(pending: string, text: string, start: number): boolean {
  let matched = 0;
  let i = start;
  for (;;) {
    for (const char of pending) {
      if (matched === 0 && isSpaceOrSlash(char)) continue;
      if (char !== PREFIX[matched]) return false;
      if (++matched === PREFIX.length) return true;
    }
    if (i >= text.length) return false;
    const code = text.codePointAt(i) ?? 0;
    pending = foldCodePoint(code);
    i += code > 0xffff ? 2 : 1;
  }
}

function isSpaceOrSlash(char: string): boolean {
  return char === ' ' || char === '/' || (char < '\x80' ? char >= '\t' && char <= '\r' : /\s/.test(char));
}

const NAMED: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };
const ATTRIBUTE_SPECIAL = /[&"<>]/;
const PLAIN_ATTRIBUTE = /^[\t\n\r\x20-\x7e]*$/;
/** Controls, format and separator characters, except the joiners scripts and emoji need. */
export const INVISIBLE_IN_ATTRIBUTE = visibleFirst(/[\x00-\x1f\x7f]/, () => /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);

/**
 * Attribute values are host-built but may carry repository paths or titles. Besides `& " < >`,
 * invisible characters and anything that folds to one of those (`＂`, `＜`) become numeric
 * references, so a value can neither end early nor hide what it says.
 *
 * @example
 * escapeAttribute('a"b\u200b＞') // 'a&quot;b&#x200B;&#xFF1E;'
 */
export function escapeAttribute(value: string): string {
  if (PLAIN_ATTRIBUTE.test(value)) return value.replace(/[&"<>]/g, (char) => NAMED[char] ?? char).replace(/[\r\n\t]/g, ' ');
  let out = '';
  // Picked for the whole value: the ASCII spelling serves every character of it or none.
  const invisible = INVISIBLE_IN_ATTRIBUTE.for(value);
  for (const char of value.replace(/[\r\n\t]/g, ' ')) {
    const code = char.codePointAt(0) ?? 0;
    const named = NAMED[char];
    if (named !== undefined) out += named;
    else if (invisible.test(char) || (code >= 0x80 && ATTRIBUTE_SPECIAL.test(foldCodePoint(code)))) out += `&#x${code.toString(16).toUpperCase()};`;
    else out += char;
  }
  return out;
}
