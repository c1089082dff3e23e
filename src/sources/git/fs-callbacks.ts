/**
 * @module sources/git/fs-callbacks
 * The few file reads the local git source and the CLI make, as promises over Node's callback
 * `fs`. `fs.promises` is a module of its own that brings eight more with it (file handles, their
 * streams, readline, directory and watch helpers): some 2 ms of CPU on every CLI run and session
 * hook, which read a handful of small files with it (issue 56). The callbacks are `fs` itself,
 * which Node has loaded before any of our code runs.
 */
import { close, fstat, open, readdir, readFile, type Dirent } from 'node:fs';

/** The text or bytes of a file, as `fs.promises.readFile` gives them. */
export function readFileAsync(path: string): Promise<Buffer>;
export function readFileAsync(path: string, encoding: BufferEncoding): Promise<string>;
export function readFileAsync(path: string, encoding?: BufferEncoding): Promise<Buffer | string> {
  return new Promise((resolve, reject) => {
    if (encoding) readFile(path, encoding, (error, text) => (error ? reject(error) : resolve(text)));
    else readFile(path, (error, bytes) => (error ? reject(error) : resolve(bytes)));
  });
}

/** A directory's entries with their types, as `fs.promises.readdir(path, { withFileTypes: true })` gives them. */
export function readdirAsync(path: string): Promise<Dirent[]> {
  return new Promise((resolve, reject) => readdir(path, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries))));
}

/**
 * A file's text when it is at most `maxBytes`, else undefined: sized and read through one open
 * descriptor, so a file swapped between the check and the read is not what gets read.
 */
export async function readSmallText(path: string, maxBytes: number): Promise<string | undefined> {
  const fd = await new Promise<number>((resolve, reject) => open(path, 'r', (error, opened) => (error ? reject(error) : resolve(opened))));
  try {
    const size = await new Promise<number>((resolve, reject) => fstat(fd, (error, stat) => (error ? reject(error) : resolve(stat.size))));
    if (size > maxBytes) return undefined;
    return await new Promise<string>((resolve, reject) => readFile(fd, 'utf8', (error, text) => (error ? reject(error) : resolve(text))));
  } finally {
    await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}

/** What sources/git/gitdir reads a git directory's pointers with (always as text). */
export const gitdirFs = { readFile: (path: string): Promise<string> => readFileAsync(path, 'utf8') };
