/**
 * An object's type and size from its headers alone (sources/git/pack-file `info`, object-db
 * `info`), which the inventory uses for a project file's size instead of inflating the file and
 * its delta chain (workers-sdk's 1 MB `pnpm-lock.yaml`, issue 56). Every answer is checked against
 * git's own (`cat-file --batch-check`), in packs whose deltas name their base by offset and by id,
 * and for loose objects; and the snapshot a local source gives tells a file's size the same way.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openObjectDatabase } from '../../src/sources/git/object-db.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

const repos: GitFixture[] = [];
afterAll(() => {
  for (const repo of repos) repo.remove();
});

/** A repository whose files changed over commits, so a repack stores most versions as deltas. */
function repositoryWithHistory(): GitFixture {
  const repo = createGitRepo();
  repos.push(repo);
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'abcdefghij'.repeat(i % 7)}`);
  for (let version = 0; version < 12; version++) {
    lines[version * 97] = `changed in version ${version}`;
    repo.write('lock.yaml', `${lines.join('\n')}\n`);
    repo.write(`notes/v${version % 3}.md`, `# Notes ${version}\n${lines.slice(0, 40 + version).join('\n')}\n`);
    repo.write('small.txt', `v${version}\n`);
    repo.commitAll(`version ${version}`);
  }
  return repo;
}

function gitObjects(repo: GitFixture): Map<string, { type: string; size: number }> {
  return new Map(
    repo
      .git('cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype) %(objectsize)')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split(' '))
      .map(([oid = '', type = '', size = '0']) => [oid, { type, size: Number(size) }]),
  );
}

/** How many objects of the (one) pack are stored as deltas, from `git verify-pack -v`. */
function deltasInPack(repo: GitFixture): number {
  const packDir = join(repo.dir, '.git', 'objects', 'pack');
  const idx = readdirSync(packDir).find((name) => name.endsWith('.idx'));
  if (!idx) throw new Error('no pack');
  // Delta lines carry two more columns: the chain's depth and the base's id.
  return repo
    .git('verify-pack', '-v', join(packDir, idx))
    .split('\n')
    .filter((line) => /^[0-9a-f]{40} (blob|tree|commit|tag)\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(line)).length;
}

describe('telling an object type and size from its headers', () => {
  it.each([
    ['by offset', 'true'],
    ['by id', 'false'],
  ])('answers as git does for every object of a pack whose deltas name their base %s', (_, offsets) => {
    const repo = repositoryWithHistory();
    repo.git('-c', `repack.useDeltaBaseOffset=${offsets}`, 'repack', '-a', '-d', '-f', '--quiet');
    repo.git('prune-packed');
    expect(deltasInPack(repo)).toBeGreaterThan(10);
    const db = openObjectDatabase(join(repo.dir, '.git'));
    try {
      const objects = gitObjects(repo);
      for (const [oid, expected] of objects) expect(db.info(oid), oid).toEqual(expected);
      // And what reading the whole object gives agrees.
      for (const [oid, expected] of objects) expect({ type: db.read(oid)?.type, size: db.read(oid)?.data.byteLength }, oid).toEqual(expected);
    } finally {
      db.close();
    }
  });

  it('answers as git does for loose objects, and undefined for an object that is not there', () => {
    const repo = repositoryWithHistory();
    const db = openObjectDatabase(join(repo.dir, '.git'));
    try {
      const objects = gitObjects(repo);
      expect(objects.size).toBeGreaterThan(40);
      for (const [oid, expected] of objects) expect(db.info(oid), oid).toEqual(expected);
      expect(db.info('0'.repeat(40))).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('gives a file size through a local snapshot without reading the file, following a link as a read does', async () => {
    const repo = repositoryWithHistory();
    repo.symlink('lock.yaml', 'lock-link.yaml');
    repo.commitAll('a link');
    repo.git('gc', '--quiet');
    const source = createLocalGitSource(repo.dir);
    const resolved = await source.resolve('HEAD');
    if (resolved.status !== 'ok') throw new Error('no HEAD');
    const snapshot = source.snapshot(resolved.commit);
    const read = await snapshot.read('lock.yaml', { maxBytes: 0 });
    expect(read.status).toBe('ok');
    const size = read.status === 'ok' ? read.size : -1;
    expect(await snapshot.fileSize?.('lock.yaml')).toBe(size);
    expect(await snapshot.fileSize?.('lock-link.yaml')).toBe(size);
    expect(await snapshot.fileSize?.('notes')).toBeUndefined();
    expect(await snapshot.fileSize?.('absent.txt')).toBeUndefined();
  });
});
