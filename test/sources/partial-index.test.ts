/**
 * sources/partial-tree's index over a read-ahead's answer: entries by path, listings of the
 * directories it listed completely (sorted by name, made once per directory: a turn's providers
 * list the same directories many times), and what it does not know.
 */
import { describe, expect, it } from 'vitest';
import { indexPartialTree } from '../../src/sources/partial-tree.ts';

const oid = (n: number) => n.toString(16).padStart(40, '0');

const index = indexPartialTree({
  dirs: [
    { path: '', entries: [{ path: 'src', kind: 'dir', oid: oid(1) }, { path: 'AGENTS.md', kind: 'file', oid: oid(2), size: 9 }, { path: '.github', kind: 'dir', oid: oid(3) }] },
    { path: 'src', entries: [{ path: 'src/b.ts', kind: 'file', oid: oid(4), size: 1 }, { path: 'src/a.ts', kind: 'file', oid: oid(5) }] },
  ],
  entries: [{ path: '.github/guide/AGENTS.md', kind: 'file', oid: oid(6), size: 3 }],
  absent: ['CLAUDE.md'],
});

describe('indexPartialTree', () => {
  it("lists a listed directory by name, each entry with its name, path, kind and size", () => {
    expect(index.children('')).toEqual([
      { name: '.github', path: '.github', kind: 'dir' },
      { name: 'AGENTS.md', path: 'AGENTS.md', kind: 'file', size: 9 },
      { name: 'src', path: 'src', kind: 'dir' },
    ]);
    expect(index.children('src')?.map((entry) => entry.name)).toEqual(['a.ts', 'b.ts']);
  });

  it('makes each listing once and answers the same one after', () => {
    const first = index.children('src');
    expect(index.children('src')).toBe(first);
    expect(index.children('')).not.toBe(first);
  });

  it('knows nothing of a directory it did not list, and what is absent or missing under a listed one', () => {
    expect(index.children('.github')).toBeUndefined();
    expect(index.children('.github')).toBeUndefined();
    expect(index.entry('.github/guide/AGENTS.md')?.oid).toBe(oid(6));
    expect(index.entry('CLAUDE.md')).toBeNull();
    expect(index.entry('src/c.ts')).toBeNull();
    expect(index.entry('AGENTS.md/x')).toBeNull();
    expect(index.entry('.github/other.md')).toBeUndefined();
  });
});
