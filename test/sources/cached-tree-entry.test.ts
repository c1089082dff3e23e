/**
 * sources/partial-tree's check of a cached tree entry, which a cached tree and a cached read-ahead
 * hold by the hundred: what zod's object held before (a normalised, non-empty path, a known kind,
 * an object id, a non-negative integer size when present), checked by hand. A value that fails
 * is a cache miss (test/sources/cache-loader: the loader is asked again and the value rewritten).
 */
import { describe, expect, it } from 'vitest';
import { CachedTreeEntrySchema, isCachedTreeEntry } from '../../src/sources/partial-tree.ts';

const good = { path: 'docs/AGENTS.md', kind: 'file', oid: 'a'.repeat(40), size: 8 };

describe('isCachedTreeEntry', () => {
  it('takes every kind, with and without a size', () => {
    for (const kind of ['file', 'dir', 'symlink', 'submodule']) expect(isCachedTreeEntry({ ...good, kind })).toBe(true);
    expect(isCachedTreeEntry({ path: 'src', kind: 'dir', oid: 'b'.repeat(40) })).toBe(true);
    expect(isCachedTreeEntry({ ...good, size: 0 })).toBe(true);
  });

  it('refuses anything the zod object refused', () => {
    const bad: unknown[] = [
      null,
      'docs/AGENTS.md',
      [],
      { ...good, path: '' },
      { ...good, path: '../escape' },
      { ...good, path: 'docs/../AGENTS.md' },
      { ...good, path: 'docs//AGENTS.md' },
      { ...good, path: './docs/AGENTS.md' },
      { ...good, path: 'docs/' },
      { ...good, path: '/etc/passwd' },
      { ...good, path: 7 },
      { ...good, kind: 'blob' },
      { ...good, kind: undefined },
      { ...good, oid: '' },
      { ...good, oid: 1 },
      { ...good, size: -1 },
      { ...good, size: 1.5 },
      { ...good, size: '8' },
      { ...good, size: Number.NaN },
      { ...good, size: Number.POSITIVE_INFINITY },
      { ...good, size: null },
    ];
    for (const value of bad) expect(isCachedTreeEntry(value), JSON.stringify(value)).toBe(false);
  });

  it('is the schema the cached values are parsed with', () => {
    expect(CachedTreeEntrySchema.safeParse(good).success).toBe(true);
    expect(CachedTreeEntrySchema.safeParse({ ...good, path: '../escape' }).success).toBe(false);
  });
});
