/**
 * The common visible characters of lib/unicode-regexp, held to Node's own Unicode classes: the CLI
 * runs on Node's ICU, the Worker on workerd's (test/lib/unicode-regexp holds them there). A
 * `visibleFirst` pair passes these characters to its ASCII spelling, so none may be one its
 * Unicode expression could match.
 */
import { describe, expect, it } from 'vitest';
import { COMMON_VISIBLE, isAsciiOrVisible } from '../../src/lib/unicode-regexp.ts';

describe('the common visible characters on Node', () => {
  it(`are none of them a control, format, separator, mark, private use, surrogate, unassigned or ignorable character (Unicode ${process.versions.unicode})`, () => {
    const unseen = /[\p{Cc}\p{Cf}\p{Z}\p{Mn}\p{Me}\p{Mc}\p{Co}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;
    const found: string[] = [];
    let count = 0;
    for (const [first, last] of COMMON_VISIBLE) {
      for (let code = first; code <= last; code++, count++) {
        const char = String.fromCharCode(code);
        if (unseen.test(char) || !isAsciiOrVisible(char)) found.push(code.toString(16));
      }
    }
    expect(count).toBeGreaterThan(30_000);
    expect(found).toEqual([]);
  });
});
