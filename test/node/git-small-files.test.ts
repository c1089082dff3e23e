/**
 * The git directory's small files (sources/git/small-files) are read synchronously, so nothing
 * that is not a regular file may be read: a FIFO would hold the process until someone wrote to it,
 * and a device (`.git` pointing at `/dev/zero`) would never end.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitdirFs, readRegularFile, readSmallText } from '../../src/sources/git/small-files.ts';
import { locateGitdir } from '../../src/sources/git/gitdir.ts';
import { checkedOutBranch } from '../../src/cli/local-upstream.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'groundwork-small-files-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const fifo = (path: string) => execFileSync('mkfifo', [path]);

describe('the git directory\'s small files', () => {
  it('reads a regular file, and gives undefined for one over the limit', () => {
    writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    expect(readSmallText(join(dir, 'HEAD'), 64)).toBe('ref: refs/heads/main\n');
    expect(readSmallText(join(dir, 'HEAD'), 8)).toBeUndefined();
    expect(readRegularFile(join(dir, 'HEAD')).toString()).toBe('ref: refs/heads/main\n');
  });

  it('refuses a directory as readFile does (EISDIR), and anything else that is not a regular file (EINVAL)', () => {
    mkdirSync(join(dir, 'sub'));
    fifo(join(dir, 'pipe'));
    expect(() => readRegularFile(join(dir, 'sub'))).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(() => readRegularFile(join(dir, 'pipe'))).toThrow(expect.objectContaining({ code: 'EINVAL', message: `${join(dir, 'pipe')} is not a regular file` }));
    expect(() => readRegularFile('/dev/zero')).toThrow(expect.objectContaining({ code: 'EINVAL' }));
    expect(() => readRegularFile(join(dir, 'absent'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('tells gitdir a .git directory, a .git pointer file, and refuses a .git FIFO or device without waiting on it', async () => {
    const plain = join(dir, 'plain');
    mkdirSync(join(plain, '.git'), { recursive: true });
    await expect(locateGitdir(gitdirFs, plain)).resolves.toEqual({ ok: true, gitdir: join(plain, '.git'), headGitdir: join(plain, '.git') });

    const pointer = join(dir, 'pointer');
    mkdirSync(pointer);
    writeFileSync(join(pointer, '.git'), `gitdir: ${join(plain, '.git')}\n`);
    await expect(locateGitdir(gitdirFs, pointer)).resolves.toEqual({ ok: true, gitdir: join(plain, '.git'), headGitdir: join(plain, '.git') });

    const piped = join(dir, 'piped');
    mkdirSync(piped);
    fifo(join(piped, '.git'));
    await expect(locateGitdir(gitdirFs, piped)).rejects.toThrow('is not a regular file');

    const device = join(dir, 'device');
    mkdirSync(device);
    symlinkSync('/dev/zero', join(device, '.git'));
    await expect(locateGitdir(gitdirFs, device)).rejects.toThrow('is not a regular file');
  });

  it('gives no branch for a HEAD that is a FIFO, without waiting on it', async () => {
    const root = join(dir, 'repo');
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await expect(checkedOutBranch(root)).resolves.toBe('main');
    rmSync(join(root, '.git', 'HEAD'));
    fifo(join(root, '.git', 'HEAD'));
    await expect(checkedOutBranch(root)).resolves.toBeUndefined();
  });
});
