/**
 * One object database per git directory for a whole process (sources/git/object-db), as the
 * local MCP server uses it across tool calls: objects read once are kept, and the packs are
 * looked at again when git changed them (a new commit, `git gc` repacking everything), so a
 * long-lived database never answers "missing" for an object the repository has.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byteLru } from '../../src/lib/byte-lru.ts';
import { sharedObjectDatabase } from '../../src/sources/git/object-db.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

let repo: GitFixture;

beforeAll(() => {
  repo = createGitRepo();
});
afterAll(() => repo.remove());

const gitdir = () => join(repo.dir, '.git');
const text = (data: Uint8Array | undefined) => (data ? Buffer.from(data).toString('utf8') : undefined);

describe('a database shared by a process', () => {
  it('is the same database for the same git directory, and gives an object read before without reading it again', () => {
    repo.write('AGENTS.md', 'first\n');
    repo.commitAll('first');
    const blob = repo.git('rev-parse', 'HEAD:AGENTS.md');
    const db = sharedObjectDatabase(gitdir());
    expect(sharedObjectDatabase(`${gitdir()}/`)).toBe(db);
    const read = db.read(blob);
    expect(text(read?.data)).toBe('first\n');
    expect(db.read(blob)).toBe(read);
  });

  it('finds what git wrote after it was opened: loose objects, then everything repacked by git gc', () => {
    const db = sharedObjectDatabase(gitdir());
    repo.git('gc', '--quiet');
    const before = repo.git('rev-parse', 'HEAD');
    expect(db.read(before)?.type).toBe('commit');

    repo.write('AGENTS.md', 'second\n');
    const loose = repo.commitAll('second');
    expect(db.read(loose)?.type).toBe('commit');
    expect(db.has(loose)).toBe(true);

    // gc packs the loose objects into a new pack and deletes the old pack this database has open.
    repo.write('src/AGENTS.md', 'third\n');
    const third = repo.commitAll('third');
    repo.git('gc', '--quiet', '--prune=now');
    const blob = repo.git('rev-parse', `${third}:src/AGENTS.md`);
    expect(text(db.read(blob)?.data)).toBe('third\n');
    expect(db.has(third)).toBe(true);
    expect(db.expand(third.slice(0, 10))).toEqual([third]);
    expect(db.read('0'.repeat(40))).toBeUndefined();
  });

  it('lets a local source read every commit after gc, through listings kept from before it', async () => {
    const source = createLocalGitSource(repo.dir);
    const head = await source.resolve('HEAD');
    if (head.status !== 'ok') throw new Error('no HEAD');
    const first = await source.snapshot(head.commit).list('');
    repo.git('gc', '--quiet', '--prune=now', '--aggressive');
    const again = await createLocalGitSource(repo.dir).snapshot(head.commit).list('src');
    expect(first.status).toBe('ok');
    expect(again).toMatchObject({ status: 'ok', entries: [{ path: 'src/AGENTS.md', kind: 'file' }] });
    const read = await createLocalGitSource(repo.dir).snapshot(head.commit).read('src/AGENTS.md', { maxBytes: 1024 });
    expect(read).toMatchObject({ status: 'ok', text: 'third\n' });
  });
});

describe('a cache bounded by size', () => {
  it('keeps the most recently used values within its bound and never a value over a quarter of it', () => {
    const cache = byteLru<string, string>(100, (value) => value.length);
    cache.set('a', 'x'.repeat(20));
    cache.set('b', 'x'.repeat(20));
    cache.set('c', 'x'.repeat(20));
    expect(cache.get('a')).toBeDefined();
    cache.set('d', 'x'.repeat(25));
    cache.set('e', 'x'.repeat(25));
    // 110 bytes would be over the bound: the least recently used (b) went, a was used after it.
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d'), cache.get('e')].every((value) => value !== undefined)).toBe(true);
    expect(cache.bytes).toBeLessThanOrEqual(100);
    cache.set('huge', 'x'.repeat(26));
    expect(cache.get('huge')).toBeUndefined();
    cache.set('a', 'y');
    expect(cache.get('a')).toBe('y');
    expect(cache.bytes).toBe(71);
  });
});
