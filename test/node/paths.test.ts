import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseByStep, normalisePath } from '../../src/sources/paths.ts';

describe('normalisePath in Node', () => {
  it('keeps a nested path and rejects an escape', () => {
    expect(normalisePath('a/./b/')).toEqual({ ok: true, path: 'a/b' });
    expect(normalisePath('a/../../b').ok).toBe(false);
  });

  it('refuses what is not a path inside the tree, fast path or not', () => {
    expect(normalisePath('C:/x')).toEqual({ ok: false, reason: 'path has a drive letter' });
    expect(normalisePath('/etc/passwd')).toEqual({ ok: false, reason: 'path is absolute' });
    expect(normalisePath('a\\b')).toEqual({ ok: false, reason: 'path contains a backslash' });
    expect(normalisePath('a\0b')).toEqual({ ok: false, reason: 'path contains a NUL byte' });
    expect(normalisePath('..')).toEqual({ ok: false, reason: 'path escapes the repository root' });
    expect(normalisePath('./.')).toEqual({ ok: true, path: '' });
    expect(normalisePath('a//b/./c/..')).toEqual({ ok: true, path: 'a/b' });
  });

  it('answers a normal path as it is, and every spelling that is not as the steps do', () => {
    const cases = ['', 'AGENTS.md', 'packages/app/src/main.ts', '.github/copilot-instructions.md', '..a/b..', 'a/.../b', 'C:/x', 'c:', 'C', 'a/C:/b', '.', '..', './a', 'a/.', 'a/..', 'a//b', 'a/', '/a', 'a\\b', 'a\0b', 'é/\uD800', ' / '];
    for (const input of cases) expect(normalisePath(input), JSON.stringify(input)).toEqual(normaliseByStep(input));
  });

  it('agrees with the steps on generated paths', () => {
    const unit = fc.constantFrom('a', 'B', '.', '/', '\\', '\0', ':', 'C', 'z', ' ', 'é', '\uD83D', '-');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 14 }).map((units) => units.join('')), (input) => {
        expect(normalisePath(input)).toEqual(normaliseByStep(input));
      }),
      { numRuns: 20_000 },
    );
  });
});
