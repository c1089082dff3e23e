/**
 * Object lookups in a pack's index (sources/git/pack-file): a lookup reads a window of ids around
 * where the id should sit in its fan-out bucket and reads the whole bucket only when the id is
 * outside the window. A pack of some 600 objects with windows of 1 to 8 ids walks every
 * path (found in the window, before it, after it, absent inside and outside it) that a window
 * of 128 ids meets only on a pack of hundreds of thousands; every answer is checked against git's own.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPackFile, type PackFile } from '../../src/sources/git/pack-file.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

let repo: GitFixture;
let idx: string;
let objects: Map<string, { type: string; size: number }>;

beforeAll(() => {
  repo = createGitRepo();
  // 600 small files in 20 directories: some 620 objects, 2 or 3 per fan-out bucket.
  for (let dir = 0; dir < 20; dir++) for (let file = 0; file < 30; file++) repo.write(`d${dir}/f${file}.txt`, `file ${dir}/${file}\n${'x'.repeat(file)}\n`);
  repo.commitAll('many objects');
  repo.git('gc', '--quiet');
  const packDir = join(repo.dir, '.git', 'objects', 'pack');
  const name = readdirSync(packDir).find((entry) => entry.endsWith('.idx'));
  if (!name) throw new Error('git gc wrote no pack');
  idx = join(packDir, name);
  objects = new Map(
    repo
      .git('cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype) %(objectsize)')
      .split('\n')
      .map((line) => line.split(' '))
      .map(([oid = '', type = '', size = '0']) => [oid, { type, size: Number(size) }]),
  );
}, 60_000);

afterAll(() => repo.remove());

function open(idWindow: number): PackFile {
  return openPackFile(idx, `${idx.slice(0, -4)}.pack`, { idWindow });
}

/** Ids git does not have: each present id with its last byte changed, so they sort right beside real ones. */
function absentIds(): string[] {
  return [...objects.keys()].map((oid) => `${oid.slice(0, 38)}${((Number.parseInt(oid.slice(38), 16) + 1) % 256).toString(16).padStart(2, '0')}`).filter((oid) => !objects.has(oid));
}

describe('looking objects up in a pack index', () => {
  it.each([1, 2, 3, 8, 128])('finds every object git has, with its type and size, reading %i ids around each guess', (idWindow) => {
    expect(objects.size).toBeGreaterThan(600);
    const pack = open(idWindow);
    try {
      for (const [oid, expected] of objects) {
        const offset = pack.find(oid);
        expect(offset, oid).toBeTypeOf('number');
        const object = pack.read(offset ?? 0, () => undefined);
        expect({ type: object.type, size: object.data.byteLength }, oid).toEqual(expected);
      }
    } finally {
      pack.close();
    }
  });

  it.each([1, 2, 8, 128])('answers undefined for ids git does not have, beside real ones or not (%i ids per window)', (idWindow) => {
    const pack = open(idWindow);
    try {
      const absent = [...absentIds(), '0'.repeat(40), 'f'.repeat(40), '00000000000000000000000000000000000000ff'];
      for (const oid of absent) expect(pack.find(oid), oid).toBeUndefined();
      expect(pack.find('not hex at all')).toBeUndefined();
    } finally {
      pack.close();
    }
  });
});
