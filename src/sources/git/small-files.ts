/**
 * @module sources/git/small-files
 * The few small files that say where a working tree's git data is and which branch it is on (the
 * `.git` file or directory, `commondir`, `HEAD`, `config`), read synchronously as the rest of the
 * local git source reads (refs, packs, loose objects). Read with Node's callback `fs`, each was a
 * job for libuv's thread pool, and the first of them started the pool's four threads: some 2 ms
 * of CPU on every CLI run and session hook for a handful of reads of a few bytes (issue 56).
 *
 * Each file is opened with O_NONBLOCK: an open of a FIFO for reading only then returns at once,
 * where without it the open waits until something opens the FIFO for writing, and the process
 * with it (POSIX open(), "O_NONBLOCK": pubs.opengroup.org/onlinepubs/9799919799/functions/open.html;
 * Linux fifo(7)). It is then checked on the open descriptor to be a regular file before a byte is
 * read: a FIFO, a socket or a device (`.git` pointing at `/dev/zero`) is refused with an error
 * rather than read (test/node/git-small-files).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a refusal carries, as Node's own errors do, so callers can tell a directory from the rest. */
class SmallFileError extends Error {
  readonly code: string;

  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

/**
 * A regular file's bytes, or undefined when it is larger than `maxBytes`; a directory is refused
 * with `EISDIR` (as `readFile` refuses one), anything else that is not a regular file with `EINVAL`.
 * Sized and read through one descriptor, so a file swapped between the check and the read is not
 * what gets read.
 */
export function readRegularFile(path: string): Buffer;
export function readRegularFile(path: string, maxBytes: number): Buffer | undefined;
export function readRegularFile(path: string, maxBytes = Infinity): Buffer | undefined {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new SmallFileError(`EISDIR: illegal operation on a directory, read '${path}'`, 'EISDIR');
    if (!stat.isFile()) throw new SmallFileError(`${path} is not a regular file`, 'EINVAL');
    if (stat.size > maxBytes) return undefined;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file's text when it is at most `maxBytes`, else undefined (see readRegularFile for what is refused). */
export function readSmallText(path: string, maxBytes: number): string | undefined {
  return readRegularFile(path, maxBytes)?.toString('utf8');
}

/** What sources/git/gitdir reads a git directory's pointers with (always as text). */
export const gitdirFs = {
  readFile: async (path: string): Promise<string> => readRegularFile(path).toString('utf8'),
};
