import { describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/sources/git/memory-fs.ts';

describe('the in-memory fs behaves like Node where isomorphic-git looks', () => {
  it('writes, reads as bytes or text, lists sorted and stats', async () => {
    const { promises: fs } = createMemoryFs();
    await fs.mkdir('/repo');
    await fs.writeFile('/repo/b', 'bee');
    await fs.writeFile('/repo/a', new Uint8Array([1, 2]));
    expect(await fs.readFile('/repo/b', 'utf8')).toBe('bee');
    expect(await fs.readFile('/repo/a')).toEqual(new Uint8Array([1, 2]));
    expect(await fs.readdir('/repo')).toEqual(['a', 'b']);
    const stats = await fs.stat('/repo/b');
    expect([stats.isFile(), stats.isDirectory(), stats.size]).toEqual([true, false, 3]);
  });

  it('fails with the error codes isomorphic-git branches on', async () => {
    const { promises: fs } = createMemoryFs();
    await fs.mkdir('/d');
    await fs.writeFile('/d/f', 'x');
    await expect(fs.readFile('/nope')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.writeFile('/missing/f', 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.mkdir('/d')).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(fs.rmdir('/d')).rejects.toMatchObject({ code: 'ENOTEMPTY' });
    await expect(fs.readdir('/d/f')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(fs.readFile('/d')).rejects.toMatchObject({ code: 'EISDIR' });
    await fs.unlink('/d/f');
    await fs.rmdir('/d');
    expect(await fs.readdir('/')).toEqual([]);
  });

  it('keeps symlinks distinct for lstat and follows them for stat and readFile', async () => {
    const { promises: fs } = createMemoryFs();
    await fs.writeFile('/target', 'content');
    await fs.symlink('target', '/link');
    expect(await fs.readlink('/link')).toBe('target');
    expect((await fs.lstat('/link')).isSymbolicLink()).toBe(true);
    expect((await fs.stat('/link')).isFile()).toBe(true);
    expect(await fs.readFile('/link', { encoding: 'utf8' })).toBe('content');
  });
});
