import { describe, expect, it } from 'vitest';
import { normalisePath } from '../../src/sources/paths.ts';

describe('normalisePath in Node', () => {
  it('keeps a nested path and rejects an escape', () => {
    expect(normalisePath('a/./b/')).toEqual({ ok: true, path: 'a/b' });
    expect(normalisePath('a/../../b').ok).toBe(false);
  });
});
