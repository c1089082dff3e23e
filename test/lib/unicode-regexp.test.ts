import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RAW } from '../../src/cli/json-output.ts';
import { UNSAFE as TERMINAL_UNSAFE } from '../../src/cli/terminal-text.ts';
import { INVISIBLE_IN_ATTRIBUTE } from '../../src/context/escape.ts';
import { INVISIBLE } from '../../src/context/fold.ts';
import { HIDDEN } from '../../src/context/render.ts';
import { NAME_CHARS } from '../../src/lib/skill-names.ts';
import { asciiFirst, COMMON_VISIBLE, isAscii, isAsciiOrVisible, type AsciiFirst } from '../../src/lib/unicode-regexp.ts';
import { BARE, displayName, UNSAFE } from '../../src/providers/display-name.ts';
import { LOWER_UPPER, UPPER_WORD, WORD, words } from '../../src/providers/skills/rank.ts';

/** The pairs made with `visibleFirst`: their ASCII spelling also serves the common visible characters. */
const VISIBLE_PAIRS: Record<string, AsciiFirst> = { UNSAFE, HIDDEN, RAW, TERMINAL_UNSAFE, INVISIBLE, INVISIBLE_IN_ATTRIBUTE };
const PAIRS: Record<string, AsciiFirst> = { BARE, LOWER_UPPER, UPPER_WORD, WORD, NAME_CHARS, ...VISIBLE_PAIRS };

/** Every match a regular expression makes in `text`, with where and its groups. */
function matches(re: RegExp, text: string): Array<{ index: number; groups: string[] }> {
  if (re.global) return [...text.matchAll(re)].map((match) => ({ index: match.index, groups: [...match] }));
  const match = re.exec(text);
  return match ? [{ index: match.index, groups: [...match] }] : [];
}

const ALL_ASCII = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
const ALL_VISIBLE = COMMON_VISIBLE.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => String.fromCharCode(first + i)));

describe('an ASCII spelling beside each Unicode regular expression (lib/unicode-regexp)', () => {
  it.each(Object.entries(PAIRS))('%s matches every ASCII character as its Unicode expression does', (_, pair) => {
    for (const char of ALL_ASCII) expect(matches(pair.ascii, char), JSON.stringify(char)).toEqual(matches(pair.unicode(), char));
  });

  it.each(Object.entries(PAIRS))('%s matches ASCII strings as its Unicode expression does', (_, pair) => {
    // Random ASCII, and strings of the letters, digits, punctuation and spaces names and words are made of.
    const text = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 40 }), fc.string({ unit: fc.constantFrom(...'aZzA09._-/ @#\t'), maxLength: 40 }));
    fc.assert(
      fc.property(text, (value) => {
        expect(matches(pair.ascii, value)).toEqual(matches(pair.unicode(), value));
      }),
      { numRuns: 500 },
    );
  });

  it('holds no common visible character that is a control, format, separator, mark, private use, surrogate, unassigned or ignorable', () => {
    // Were one of them any of these, a visibleFirst pair would pass it over where its Unicode expression matches it.
    const unseen = /[\p{Cc}\p{Cf}\p{Z}\p{Mn}\p{Me}\p{Mc}\p{Co}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;
    expect(ALL_VISIBLE.length).toBeGreaterThan(30_000);
    expect(ALL_VISIBLE.filter((char) => unseen.test(char)).map((char) => char.charCodeAt(0).toString(16))).toEqual([]);
    expect(ALL_VISIBLE.every((char) => char.length === 1 && isAsciiOrVisible(char))).toBe(true);
  });

  it.each(Object.entries(VISIBLE_PAIRS))('%s matches every common visible character as its Unicode expression does', (_, pair) => {
    const unicode = pair.unicode();
    for (const char of ALL_VISIBLE) if (!(matches(pair.ascii, char).length === 0 && matches(unicode, char).length === 0)) expect(matches(pair.ascii, char), JSON.stringify(char)).toEqual(matches(unicode, char));
  });

  it.each(Object.entries(VISIBLE_PAIRS))('%s matches strings of ASCII and common visible characters as its Unicode expression does', (_, pair) => {
    const unit = fc.oneof(fc.constantFrom(...ALL_ASCII), fc.constantFrom(...'—–’“”…→←é£§°©®™•✓中ア한ＡＢ＜'), fc.constantFrom(...ALL_VISIBLE));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (value) => {
        expect(pair.for(value)).toBe(pair.ascii);
        expect(matches(pair.ascii, value)).toEqual(matches(pair.unicode(), value));
      }),
      { numRuns: 500 },
    );
  });

  it('uses the Unicode spelling of a visibleFirst pair for any other character', () => {
    for (const text of ['a—b', 'Ｒéglages → 中文', 'plain']) expect(RAW.for(text), text).toBe(RAW.ascii);
    for (const text of ['a\u200bb', 'e\u0301', 'a\u00a0b', 'x\u00ady', '\u{1F600}', 'a\u2028b', '\ud800', 'a\u202eb—']) expect(RAW.for(text), JSON.stringify(text)).toBe(RAW.unicode());
    expect(isAsciiOrVisible('—'.repeat(3) + 'a'.repeat(50) + '→')).toBe(true);
    expect(isAsciiOrVisible('—'.repeat(3) + 'a'.repeat(50) + '\u200d')).toBe(false);
  });

  it('uses the ASCII spelling only on ASCII text', () => {
    expect(isAscii('src/index.ts\x00\x7f')).toBe(true);
    expect(isAscii('café')).toBe(false);
    expect(isAscii('a\u0080')).toBe(false);
    expect(BARE.for('src/index.ts')).toBe(BARE.ascii);
    expect(BARE.for('src/café.ts')).toBe(BARE.unicode());
    expect(BARE.unicode(), 'made once and kept').toBe(BARE.unicode());
  });

  it('refuses a pair whose flags differ beyond `u`, when the Unicode one is first made', () => {
    const wrong = asciiFirst(/a/g, () => /\p{L}/u);
    expect(wrong.for('a')).toBe(wrong.ascii);
    expect(() => wrong.for('é')).toThrow(/differ in flags/);
    expect(asciiFirst(/a/g, () => /\p{L}/gu).for('é').flags).toBe('gu');
  });

  it('leaves what names and words come out as: ASCII and not', () => {
    expect(displayName('src/index.ts')).toBe('src/index.ts');
    expect(displayName('a\n- evil.sh')).toBe('"a\\n- evil.sh"');
    expect(displayName('a\x7fb')).toBe('"a\\u007fb"');
    expect(displayName('dossier/été.md')).toBe('dossier/été.md');
    expect(displayName('x'.repeat(201))).toBe(`"${'x'.repeat(199)}…"`);
    expect(words('parseHTTPServer config_file')).toEqual(['parse', 'http', 'server', 'config', 'file']);
    expect(words('ｐａｒｓｅＨＴＴＰ réglages')).toEqual(['parse', 'http', 'réglage']);
  });
});
