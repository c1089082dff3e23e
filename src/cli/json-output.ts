/**
 * @module cli/json-output
 * What `--json` and `--format` print: JSON whose values are exactly the text, and whose bytes
 * are safe on a terminal. `JSON.stringify` escapes C0 controls but prints C1 controls (U+009B is
 * a terminal's CSI), bidirectional overrides (U+202E), line and paragraph separators (U+2028,
 * U+2029) and other invisible format characters as they are. Each of them is written as a `\u`
 * escape, which JSON allows for any character, so a parser reads the same value and a terminal
 * shows the escape.
 *
 * @example
 * jsonOutput({ title: 'a\u202Eb' }) // '{\n  "title": "a\\u202eb"\n}\n'
 */
import { visibleFirst } from '../lib/unicode-regexp.ts';

/** Every control, format, line or paragraph separator character that JSON.stringify leaves raw. */
export const RAW = visibleFirst(/[\x00-\x1f\x7f]/g, () => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu);

export function jsonOutput(value: unknown): string {
  // Outside strings JSON.stringify writes only spaces and line feeds, so every match is inside a string.
  const json = JSON.stringify(value, null, 2);
  const text = json.replace(RAW.for(json), (char) => {
    if (char === '\n') return char;
    const code = char.codePointAt(0) ?? 0;
    return code > 0xffff ? escapeUnit(char.charCodeAt(0)) + escapeUnit(char.charCodeAt(1)) : escapeUnit(code);
  });
  return `${text}\n`;
}

const escapeUnit = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;
