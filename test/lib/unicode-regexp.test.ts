import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RAW } from '../../src/cli/json-output.ts';
import { UNSAFE as TERMINAL_UNSAFE } from '../../src/cli/terminal-text.ts';
import { HIDDEN } from '../../src/context/render.ts';
import { NAME_CHARS } from '../../src/lib/skill-names.ts';
import { asciiFirst, isAscii, type AsciiFirst } from '../../src/lib/unicode-regexp.ts';
import { BARE, displayName, UNSAFE } from '../../src/providers/display-name.ts';
import { LOWER_UPPER, UPPER_WORD, WORD, words } from '../../src/providers/skills/rank.ts';

const PAIRS: Record<string, AsciiFirst> = { BARE, UNSAFE, LOWER_UPPER, UPPER_WORD, WORD, HIDDEN, RAW, TERMINAL_UNSAFE, NAME_CHARS };

/** Every match a regular expression makes in `text`, with where and its groups. */
function matches(re: RegExp, text: string): Array<{ index: number; groups: string[] }> {
  if (re.global) return [...text.matchAll(re)].map((match) => ({ index: match.index, groups: [...match] }));
  const match = re.exec(text);
  return match ? [{ index: match.index, groups: [...match] }] : [];
}

const ALL_ASCII = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));

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
