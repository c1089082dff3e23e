/**
 * @module sources/git/fs-callbacks
 * The working tree's reads the CLI makes (cli/worktree-snapshot), as promises over Node's callback
 * `fs`: a file there may be a FIFO or on a slow mount, and a read that waits must not stop the
 * process (the git directory's own small files are read as sources/git/small-files says).
 * `fs.promises` is a module of its own that brings eight more with it (file handles, their
 * streams, readline, directory and watch helpers): some 2 ms of CPU on every CLI run, which read
 * a handful of files with it (issue 56). The callbacks are `fs` itself, which Node has loaded
 * before any of our code runs.
 */
import { readdir, readFile, type Dirent } from 'node:fs';

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
