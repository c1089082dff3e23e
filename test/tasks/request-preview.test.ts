import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REQUEST_EXCERPT_CHARS, REQUEST_PREVIEW_CHARS, requestExcerpt, requestPreview } from '../../src/tasks/task-index.ts';

/** The definitions, written the slow way: normalise the whole request, then cut by code points. */
function referencePreview(request: string): string {
  const line = request.replace(/\s+/g, ' ').trim();
  const points = Array.from(line);
  return points.length <= REQUEST_PREVIEW_CHARS ? line : `${points.slice(0, REQUEST_PREVIEW_CHARS - 1).join('')}…`;
}

function referenceExcerpt(request: string): string {
  const points = Array.from(request);
  return points.length <= REQUEST_EXCERPT_CHARS ? request : `${points.slice(0, REQUEST_EXCERPT_CHARS - 1).join('')}…`;
}

/** Text near the limits, heavy in whitespace of every kind, astral code points and lone surrogates. */
const piece = fc.oneof(
  fc.constantFrom(' ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '😀', '\ud800', 'é', '…'),
  fc.string({ maxLength: 40 }),
  fc.stringMatching(/^[a-z]{150,260}$/),
);
const request = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''));

describe('request previews in the task index', () => {
  it('match the whole-request definition for any text', () => {
    fc.assert(
      fc.property(request, (text) => {
        expect(requestPreview(text)).toBe(referencePreview(text));
        expect(requestExcerpt(text)).toBe(referenceExcerpt(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('cut at the limits exactly', () => {
    const at = (n: number, point = 'a') => point.repeat(n);
    expect(requestPreview(at(REQUEST_PREVIEW_CHARS))).toBe(at(REQUEST_PREVIEW_CHARS));
    expect(requestPreview(at(REQUEST_PREVIEW_CHARS + 1))).toBe(`${at(REQUEST_PREVIEW_CHARS - 1)}…`);
    expect(requestPreview(`  ${at(REQUEST_PREVIEW_CHARS / 2, 'b ')}\n\n`)).toBe(at(REQUEST_PREVIEW_CHARS / 2, 'b ').trimEnd());
    expect(requestExcerpt(at(REQUEST_EXCERPT_CHARS, '😀'))).toBe(at(REQUEST_EXCERPT_CHARS, '😀'));
    expect(requestExcerpt(at(REQUEST_EXCERPT_CHARS + 1, '😀'))).toBe(`${at(REQUEST_EXCERPT_CHARS - 1, '😀')}…`);
  });

  it('read only the start of a long request', () => {
    // A request past the schema's cap still previews from its start; the rest is never scanned.
    const long = `Review this.${' '.repeat(5)}${'x'.repeat(1_000_000)}`;
    expect(requestPreview(long)).toBe(`Review this. ${'x'.repeat(REQUEST_PREVIEW_CHARS - 14)}…`);
    expect(requestExcerpt(long)).toHaveLength(REQUEST_EXCERPT_CHARS);
  });
});
