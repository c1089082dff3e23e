import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalisePath, type NormalisedPath } from '../../src/sources/paths.ts';

/** The steps alone, as normalisePath read every path before its fast path for normal ones (issue 56). */
function stepwise(input: string): NormalisedPath {
  if (input.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  if (input.includes('\\')) return { ok: false, reason: 'path contains a backslash' };
  if (input.startsWith('/')) return { ok: false, reason: 'path is absolute' };
  if (/^[A-Za-z]:/.test(input)) return { ok: false, reason: 'path has a drive letter' };
  const parts: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return { ok: false, reason: 'path escapes the repository root' };
      parts.pop();
      continue;
    }
    parts.push(segment);
  }
  return { ok: true, path: parts.join('/') };
}

describe('normalisePath in Node', () => {
  it('keeps a nested path and rejects an escape', () => {
    expect(normalisePath('a/./b/')).toEqual({ ok: true, path: 'a/b' });
    expect(normalisePath('a/../../b').ok).toBe(false);
  });

  it('answers a normal path as it is, and every spelling that is not as the steps do', () => {
    const cases = ['', 'AGENTS.md', 'packages/app/src/main.ts', '.github/copilot-instructions.md', '..a/b..', 'a/.../b', 'C:/x', 'c:', 'C', 'a/C:/b', '.', '..', './a', 'a/.', 'a/..', 'a//b', 'a/', '/a', 'a\\b', 'a\0b', 'é/\uD800', ' / '];
    for (const input of cases) expect(normalisePath(input), JSON.stringify(input)).toEqual(stepwise(input));
  });

  it('agrees with the steps on generated paths', () => {
    const unit = fc.constantFrom('a', 'B', '.', '/', '\\', '\0', ':', 'C', 'z', ' ', 'é', '\uD83D', '-');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 14 }).map((units) => units.join('')), (input) => {
        expect(normalisePath(input)).toEqual(stepwise(input));
      }),
      { numRuns: 20_000 },
    );
  });
});
