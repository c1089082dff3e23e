/**
 * Commit dates as ISO 8601 UTC (sources/commit-info): written from Date's UTC fields for four-digit
 * years, without `toISOString`, which looks up the local time zone first (issue 56); the text must
 * be the bytes `toISOString` gives without its milliseconds, since digests include it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromEpochSeconds, parseCommitObject } from '../../src/sources/commit-info.ts';

const viaToISOString = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const outcome = (run: () => string): string => {
  try {
    return run();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};

describe('commit dates', () => {
  it("are toISOString's text without milliseconds, for any time V8 can hold", () => {
    const edges = [0, -1, 1, -62167219200, -62167219201, 253402300799, 253402300800, 8.64e12, -8.64e12, 8.64e12 + 1, 1.5, -1.5, Number.NaN, Infinity];
    for (const seconds of edges) expect(outcome(() => isoFromEpochSeconds(seconds)), String(seconds)).toBe(outcome(() => viaToISOString(seconds)));
    fc.assert(
      fc.property(fc.integer({ min: -8.64e12, max: 8.64e12 }), (seconds) => outcome(() => isoFromEpochSeconds(seconds)) === outcome(() => viaToISOString(seconds))),
      { numRuns: 20_000 },
    );
  });

  it('of a commit in a four-digit year are written without toISOString', () => {
    const method = Date.prototype.toISOString;
    let calls = 0;
    Date.prototype.toISOString = function (this: Date) {
      calls++;
      return method.call(this);
    };
    try {
      const info = parseCommitObject('a'.repeat(40), `tree ${'b'.repeat(40)}\nauthor A <a@example.test> 1700000000 +0100\ncommitter C <c@example.test> 951782400 -0500\n\nmessage\n`);
      expect(info).toMatchObject({ authoredAt: '2023-11-14T22:13:20Z', committedAt: '2000-02-29T00:00:00Z' });
      expect(isoFromEpochSeconds(253402300800)).toBe('+010000-01-01T00:00:00Z');
      expect(calls, 'only the five-digit year went to toISOString').toBe(1);
    } finally {
      Date.prototype.toISOString = method;
    }
  });
});
