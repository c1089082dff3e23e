/**
 * @module cli/code-cache
 * Runs a command's bundle (`dist/commands/<name>.cjs`) with V8's code cache taken after the
 * command ran, so the next run starts with every function it called already compiled.
 *
 * Why not Node's own compile cache (`module.enableCompileCache`, which `cli.js` still turns on
 * for itself): it stores what V8 compiled while loading a module, before any of it ran, and V8
 * compiles a function lazily on its first call. A `context` run calls some thousands of
 * functions, so it compiled each of them again every run, about a fifth of the run (issue 28).
 * `vm.Script#createCachedData` after the run includes them.
 *
 * The cache is a bytecode file that runs as this user's code, so it is read only from a directory
 * this user owns that no one else may write to (the Node cache in `/tmp` is not checked this
 * way). It is keyed by the CRC-32 and length of the bundle's text and the CRC-32 of the Node build
 * and the V8 flags the command set (V8 itself checks only the source's length and its flags, and
 * refuses a cache made under other flags: two installs whose bundles are the same text but whose
 * flags differ would otherwise rewrite one cache in turn, each refusing the other's). CRC-32, as
 * Node's own compile cache keys a module's source (src/compile_cache.cc, zlib's `crc32`): the key
 * tells this user's own builds apart, it guards against nothing hostile (the directory is checked
 * for that); SHA-256 of the 360 KB hook bundle took 0.25 to 0.45 ms of every run on this machine
 * (with the CPU's SHA extensions; 10 million instructions without), zlib's CRC-32 0.08 (issue 56). It is written once per
 * bundle, after the first run that succeeds, atomically (concurrent hooks are common); the three
 * newest of each command are kept. It holds what that run compiled, so a first run that took
 * another path (a hook in a one-file repository, then every session in a large one) left the
 * later runs compiling the rest: a run that compiles much besides an accepted cache
 * (COMPLETE_AFTER_BYTES) makes it again, once, as `<name>-<key>-completed.bin`, which holds both
 * (V8 serialises every function compiled so far) and is read first from then on.
 * Any problem with the cache means running without it, never a failed command; a cache that is
 * not a regular file (a FIFO, a directory, a socket, a symbolic link) is ignored, and checking
 * that never waits on it.
 *
 * `GROUNDWORK_CODE_CACHE` names the directory, or `off`; the default is
 * `$XDG_CACHE_HOME/groundwork/code-cache` (`~/.cache/groundwork/code-cache`), or when that
 * cannot be used, `groundwork-code-cache-<uid>` in the temporary directory.
 */
import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

/** What became of the cache on this run: `accepted` is the only one that skipped compiling. */
export type CacheStatus = 'accepted' | 'rejected' | 'absent' | 'off' | 'unsafe';

export interface CachedScript<T> {
  exports: T;
  status: CacheStatus;
  /** Writes the cache when this run had none worth keeping (call it after the command succeeded). */
  save(): 'written' | 'kept' | 'failed';
}

export interface CodeCacheOptions {
  /** `process.env` by default: GROUNDWORK_CODE_CACHE, XDG_CACHE_HOME, TMPDIR. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The V8 flags the process set before this (cli/command-flags), part of the cache's key. */
  flags?: readonly string[];
}

/** Caches kept per command, newest first: see removeOldCaches. */
const KEPT_PER_COMMAND = 3;

/**
 * Bytecode a run with an accepted cache may compile besides it before the cache is made again,
 * once. A session hook on workers-sdk compiles 38 KB besides a cache made there (Node's own, which
 * making the cache again does not take: it stays 38 after), 41 on a one-file repository, and 135
 * beside a cache a run on a one-file repository made, whose runs on workers-sdk took some 10%
 * more CPU for it (issue 56).
 */
const COMPLETE_AFTER_BYTES = 96 * 1024;

/**
 * How a command bundle's text begins and ends: scripts/build writes it as a function of the
 * parameters Node's CommonJS loader passes, plus `import.meta.url`. The text is compiled as it
 * was read, one string; joining a wrapper to it here made V8 copy all half a megabyte of it into
 * a new flat string before compiling, some 160 pages of fresh memory on every run (issue 56).
 */
export const SCRIPT_START = '(function (exports, require, module, __filename, __dirname, __importMetaUrl) {';
export const SCRIPT_END = '\n})';

export function runCachedScript<T>(file: string, options: CodeCacheOptions = {}): CachedScript<T> {
  const bytes = readFileSync(file);
  // esbuild writes ASCII (it escapes the rest), and V8 takes a one-byte string without decoding it.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  if (!source.startsWith(SCRIPT_START) || !source.trimEnd().endsWith(SCRIPT_END.trim())) throw new Error(`${file} is not a command bundle: it is not wrapped in the function scripts/build writes around one`);
  const dirs = cacheDirectories(options.env ?? process.env);
  const name = basename(file).replace(/\.c?js$/, '');
  const key = cacheKey(bytes, options.flags ?? []);
  const first = `${name}-${key}.bin`;
  const completed = `${name}-${key}-completed.bin`;
  const read = readFirst(dirs, [completed, first]);
  const cachedData = typeof read === 'string' ? undefined : read.data;
  const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const status: CacheStatus = typeof read === 'string' ? read : script.cachedDataRejected ? 'rejected' : 'accepted';
  // Measured only where the cache could be completed: the first call of V8's statistics is 0.1 ms.
  const completable = status === 'accepted' && typeof read !== 'string' && read.name === first;
  const compiledBefore = completable ? compiledBytes() : 0;

  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);

  let saved: ReturnType<CachedScript<T>['save']> | undefined;
  const save = (): ReturnType<CachedScript<T>['save']> => {
    if (status === 'off') return 'kept';
    if (typeof read === 'string') return writeFirst(dirs, first, name, script);
    // A cache V8 refused is made again under the name it was read by, so it is not read and refused again.
    if (status === 'rejected') return writeCache(read.dir, join(read.dir, read.name), name, script);
    if (!completable || compiledBytes() - compiledBefore <= COMPLETE_AFTER_BYTES) return 'kept';
    const written = writeCache(read.dir, join(read.dir, completed), name, script);
    if (written === 'written') rmSync(join(read.dir, first), { force: true });
    return written;
  };
  return {
    exports: module.exports,
    status,
    save() {
      saved ??= save();
      return saved;
    },
  };
}

/**
 * Bytecode V8 holds now (its trusted space, where V8 12 keeps bytecode): what a run compiles is
 * its growth. 0 where V8 has no such space, so that a cache is never completed there.
 */
function compiledBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'trusted_space')?.space_used_size ?? 0;
}

/** The first cache any directory holds, in the order of `names`; else why none was read. */
function readFirst(dirs: readonly string[], names: readonly string[]): { data: Buffer; dir: string; name: string } | Exclude<CacheStatus, 'accepted' | 'rejected'> {
  if (dirs.length === 0) return 'off';
  let missing: 'absent' | 'unsafe' = 'absent';
  for (const dir of dirs) {
    // The directory checked once for both names (two stats a run saved where no completed cache is).
    const checked = directoryState(dir);
    if (checked !== 'private') {
      if (checked === 'unsafe') missing = checked;
      continue;
    }
    for (const name of names) {
      const read = readOwnFile(join(dir, name));
      if (typeof read !== 'string') return { data: read, dir, name };
      if (read === 'unsafe') missing = read;
    }
  }
  return missing;
}

function writeFirst(dirs: readonly string[], cacheName: string, name: string, script: Script): 'written' | 'failed' {
  for (const dir of dirs) if (writeCache(dir, join(dir, cacheName), name, script) === 'written') return 'written';
  return 'failed';
}

function cacheKey(source: Uint8Array, flags: readonly string[]): string {
  const build = `${process.version} ${process.arch} ${process.versions.v8} ${flags.join(' ')}`;
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(crc32(source))}${hex(source.byteLength)}${hex(crc32(build))}`;
}

/**
 * Where caches are kept, in order: the directory named, or the user's cache directory and then a
 * directory of this user's own under the temporary directory (for a home that is read-only, as
 * in some agents' sandboxes). Another user's directory there is refused like any unsafe one.
 */
function cacheDirectories(env: Readonly<Record<string, string | undefined>>): string[] {
  const named = env.GROUNDWORK_CODE_CACHE?.trim();
  if (named === 'off' || named === '0') return [];
  if (named) return [named];
  const base = env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache');
  const temporary = env.TMPDIR?.trim() || tmpdir();
  return [join(base, 'groundwork', 'code-cache'), join(temporary, `groundwork-code-cache-${process.getuid?.() ?? 'user'}`)];
}

/** Whether a file or directory may be trusted to hold this user's code: theirs, and no one else may write to it. */
function ownedAndPrivate(stat: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
}

/**
 * The directory, and the name it is reached by: a symbolic link someone else made in a shared
 * directory (`/tmp/groundwork-code-cache-<uid>` pointing into this user's home) is not ours.
 */
function privateDirectory(dir: string): boolean {
  const uid = process.getuid?.();
  return ownedAndPrivate(statSync(dir)) && (uid === undefined || lstatSync(dir).uid === uid);
}

/**
 * Opened without following a link and without blocking (a FIFO would otherwise hold the open
 * until someone wrote to it, and the command with it); what was opened is then checked to be a
 * regular file before a byte is read. A socket cannot be opened at all.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** A cache directory: ours and private, or missing (absent), or anyone else's or writable by others (unsafe). */
function directoryState(dir: string): 'private' | 'absent' | 'unsafe' {
  try {
    return privateDirectory(dir) ? 'private' : 'unsafe';
  } catch {
    return 'absent';
  }
}

/** A file of a directory the caller found private (directoryState). */
function readOwnFile(path: string): Buffer | 'absent' | 'unsafe' {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    // O_NOFOLLOW on a symbolic link fails with ELOOP: not a cache of ours.
    return errorCode(error) === 'ELOOP' ? 'unsafe' : 'absent';
  }
  try {
    // Checked on the open file, so a swap after the check is not what gets read.
    const stat = fstatSync(fd);
    if (!stat.isFile() || !ownedAndPrivate(stat)) return 'unsafe';
    return readFileSync(fd);
  } catch {
    return 'absent';
  } finally {
    closeSync(fd);
  }
}

const errorCode = (error: unknown): unknown => (error instanceof Error && 'code' in error ? error.code : undefined);

function writeCache(dir: string, cacheFile: string, name: string, script: Script): 'written' | 'failed' {
  const temporary = `${cacheFile}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateDirectory(dir)) return 'failed';
    // Opened before the cache is serialised (5 to 12 ms for a command's): a directory that takes
    // no file (read-only, full) then costs a failed open, not the serialising too, on every run.
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeFileSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, cacheFile);
    removeOldCaches(dir, name);
    return 'written';
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written there.
    }
    return 'failed';
  }
}

/**
 * Caches of a command's earlier builds (or another Node) are not read again, but two installs
 * used in turn (a global one and a project's) each need theirs: the newest few are kept.
 */
function removeOldCaches(dir: string, name: string): void {
  const caches = readdirSync(dir)
    .filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.bin'))
    .map((entry) => ({ path: join(dir, entry), written: statSync(join(dir, entry)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const old of caches.slice(KEPT_PER_COMMAND)) rmSync(old.path, { force: true });
}
