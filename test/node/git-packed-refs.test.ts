/**
 * `packed-refs` as git writes it and as a hostile or hand-edited one may read: the ref resolver
 * searches its bytes for one line instead of decoding the file (a mirror's is a megabyte).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRefName } from '../../src/sources/git/refs.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);

// Every directory a test made: a test resolves in several, and each is removed.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function resolveIn(packedRefs: string | Buffer, ref: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'groundwork-packed-refs-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'packed-refs'), packedRefs);
  return resolveRefName({ head: dir, common: dir }, ref);
}

describe('packed-refs', () => {
  const file = ['# pack-refs with: peeled fully-peeled sorted ', `${A} refs/heads/main`, `${B} refs/tags/v1`, `^${C}`, `${D} refs/heads/ümlaut`].join('\n');

  it('finds a branch, a tag by its short name, and a UTF-8 name', () => {
    expect(resolveIn(`${file}\n`, 'main')).toBe(A);
    expect(resolveIn(`${file}\n`, 'v1')).toBe(B);
    expect(resolveIn(`${file}\n`, 'refs/heads/ümlaut')).toBe(D);
  });

  it('finds the last line without its newline, and the first line of the file', () => {
    expect(resolveIn(file, 'ümlaut')).toBe(D);
    expect(resolveIn(`${A} refs/heads/main`, 'main')).toBe(A);
  });

  it('matches whole names only', () => {
    expect(resolveIn(`${A} refs/heads/feature/main\n${B} refs/heads/mainline\n`, 'main')).toBeUndefined();
    expect(resolveIn(`${A} refs/heads/main\n`, 'ain')).toBeUndefined();
  });

  it('takes nothing that is not a 40-digit lowercase hex object name at the start of a line', () => {
    expect(resolveIn(`${'G'.repeat(40)} refs/heads/main\n`, 'main')).toBeUndefined();
    expect(resolveIn(`x${A} refs/heads/main\n`, 'main')).toBeUndefined();
    expect(resolveIn(`${A.slice(1)} refs/heads/main\n`, 'main')).toBeUndefined();
    expect(resolveIn(`^${A}\n`, `^${A}`)).toBeUndefined();
    expect(resolveIn(Buffer.from([0xff, 0xfe, 0x0a]), 'main')).toBeUndefined();
    expect(resolveIn('', 'main')).toBeUndefined();
  });
});
