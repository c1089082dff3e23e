import { describe, expect, it } from 'vitest';
import { codePointWidth, countTokens, utf8Length } from '../../src/context/tokens.ts';
import { truncateToTokens } from '../../src/context/truncate.ts';

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe('token counter', () => {
  it('counts UTF-8 bytes like the platform encoder, lone surrogates included', () => {
    const samples = ['', 'plain ascii', 'é', '漢字かな', '👩‍👩‍👧 family', 'lone \ud800 high', 'lone \udc00 low', '\ud83d'];
    for (const sample of samples) expect(utf8Length(sample)).toBe(new TextEncoder().encode(sample).length);
    // Every width boundary and surrogate position, in random strings from a fixed seed.
    const units = [0x00, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let n = 0; n < 500; n++) {
      const sample = String.fromCharCode(...Array.from({ length: next() % 12 }, () => units[next() % units.length] ?? 0x41));
      expect(utf8Length(sample)).toBe(new TextEncoder().encode(sample).length);
      // Truncation walks code point by code point: its widths must add up to the same count.
      let widths = 0;
      for (let i = 0; i < sample.length; ) {
        const [bytes, units] = codePointWidth(sample, i);
        widths += bytes;
        i += units;
      }
      expect(widths).toBe(utf8Length(sample));
    }
    expect(countTokens('abcd')).toBe(1);
    expect(countTokens('abcde')).toBe(2);
    expect(countTokens('漢')).toBe(1);
  });
});

describe('truncateToTokens', () => {
  const mixed = '漢字🙂かな😀テスト👩‍💻한국어🎉'.repeat(12);

  it('leaves text that fits alone', () => {
    expect(truncateToTokens('short', 10, 'a.md')).toEqual({ text: 'short', truncated: false, shown: 5, total: 5 });
  });

  it('stays valid text with the marker inside the limit at every budget over emoji and CJK', () => {
    const total = countTokens(mixed);
    for (let budget = 0; budget < total; budget++) {
      const cut = truncateToTokens(mixed, budget, 'docs/漢字.md');
      if (cut === undefined) continue; // not even the marker fits this budget
      expect(cut.truncated).toBe(true);
      expect(countTokens(cut.text)).toBeLessThanOrEqual(budget);
      expect(hasLoneSurrogate(cut.text)).toBe(false);
      const bytes = new TextEncoder().encode(cut.text);
      expect(strictDecoder.decode(bytes)).toBe(cut.text);
      expect(mixed.startsWith(cut.text.slice(0, cut.shown))).toBe(true);
      expect(cut.text.endsWith(`[… truncated by groundwork: docs/漢字.md shown ${cut.shown}/${mixed.length} chars]`)).toBe(true);
    }
  });

  it('lands on a code point boundary for every byte alignment of an emoji string', () => {
    // Budgets move in 4-byte steps, so shifting the text by 0-3 ASCII bytes reaches every cut position.
    for (let shift = 0; shift < 4; shift++) {
      const text = 'a'.repeat(shift) + '😀漢'.repeat(40);
      for (let budget = 0; budget <= countTokens(text); budget++) {
        const cut = truncateToTokens(text, budget, 'e');
        if (!cut?.truncated) continue;
        const code = text.charCodeAt(cut.shown - 1);
        expect(code >= 0xd800 && code <= 0xdbff, `shift ${shift} budget ${budget}`).toBe(false);
        expect(hasLoneSurrogate(cut.text)).toBe(false);
      }
    }
  });

  it('returns undefined when not even the marker fits', () => {
    expect(truncateToTokens('x'.repeat(100), 3, 'AGENTS.md')).toBeUndefined();
  });
});
