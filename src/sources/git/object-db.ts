/**
 * @module sources/git/object-db
 * A local repository's object database as git lays it out: loose objects and packs in
 * `objects/`, plus every object directory named in `objects/info/alternates` (clones made with
 * `--shared` or `--reference`, recursively, as git allows). Read synchronously: a CLI run reads a
 * few hundred small objects, and positioned reads of page-cached files beat a promise per read.
 *
 * A process that reads the same repository again and again (the local MCP server, one assembly
 * per tool call) shares one database per git directory ({@link sharedObjectDatabase}): its packs
 * stay open and the objects it read stay decoded, up to a bound, so a warm call does not inflate
 * a file's delta chain again (issue 56). Objects never change under their ids, so what is kept
 * cannot go stale; packs can come and go (a fetch, `git gc`), so a lookup that finds nothing
 * looks at the pack directories again when one of them changed, as git itself does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { constants, inflateSync } from 'node:zlib';
import { byteLru } from '../../lib/byte-lru.ts';
import { openPackFile, type ObjectInfo, type ObjectType, type PackFile, type RawObject } from './pack-file.ts';

/** Git stops following alternates this deep. */
const MAX_ALTERNATE_DEPTH = 5;
/** Decoded objects one database keeps, by total size (an object over a quarter of it is not kept). */
const KEPT_OBJECT_BYTES = 16 * 1024 * 1024;
/** Object infos one database keeps ({@link ObjectDatabase.info}); a few dozen bytes each. */
const KEPT_INFOS = 4096;
/** Deflated bytes of a loose object inflated for its header ({@link ObjectDatabase.info}). */
const LOOSE_PREFIX = 512;
/** Repositories whose databases {@link sharedObjectDatabase} keeps open. */
const SHARED_DATABASES = 8;

export interface ObjectDatabase {
  read(oid: string): RawObject | undefined;
  /**
   * The object's type and size without reading all of it (a pack's headers, a loose object's
   * first bytes); undefined when that cannot be told so (absent, or headers that do not say:
   * reading the object then says why).
   */
  info(oid: string): ObjectInfo | undefined;
  /** Whether some store holds `oid`, without reading it (a pack's index, a loose file's name). */
  has(oid: string): boolean;
  /** Object ids that start with a short hex prefix, from every store. */
  expand(prefix: string): string[];
  /** The object directories searched, the repository's own first. */
  readonly directories: readonly string[];
  /** Closes the packs' files; a later read opens them again. */
  close(): void;
}

export function openObjectDatabase(gitdir: string): ObjectDatabase {
  const directories = objectDirectories(join(gitdir, 'objects'));
  const packDirs = directories.map((dir) => join(dir, 'pack'));
  /** Open packs by path, and the pack directories' modification times when they were listed. */
  let packs: Map<string, PackFile> | undefined;
  let listed: number[] = [];
  const listPacks = (): Map<string, PackFile> => {
    const next = new Map<string, PackFile>();
    listed = packDirs.map(modified);
    for (const packDir of packDirs) {
      if (!existsSync(packDir)) continue;
      for (const name of readdirSync(packDir).filter((entry) => entry.endsWith('.idx')).sort()) {
        const idx = join(packDir, name);
        next.set(idx, packs?.get(idx) ?? openPackFile(idx, join(packDir, `${name.slice(0, -4)}.pack`)));
      }
    }
    // A pack git removed (repacked into another) is closed; its objects are in the new one.
    for (const [idx, pack] of packs ?? []) if (!next.has(idx)) pack.close();
    packs = next;
    return next;
  };
  const allPacks = (): Iterable<PackFile> => (packs ?? listPacks()).values();
  /** Lists the packs again when a pack directory changed since they were listed; whether it did. */
  const refreshPacks = (): boolean => {
    if (packs === undefined || packDirs.every((dir, i) => modified(dir) === listed[i])) return false;
    listPacks();
    return true;
  };
  const kept = byteLru<string, RawObject>(KEPT_OBJECT_BYTES, (object) => object.data.byteLength + 64);

  const readLoose = (oid: string): RawObject | undefined => {
    for (const dir of directories) {
      const path = join(dir, oid.slice(0, 2), oid.slice(2));
      if (!existsSync(path)) continue;
      const bytes = inflateSync(readFileSync(path));
      const nul = bytes.indexOf(0);
      const [type, size] = bytes.subarray(0, nul).toString('latin1').split(' ');
      const data = bytes.subarray(nul + 1);
      if (!isObjectType(type) || Number(size) !== data.byteLength) throw new Error(`${path}: not a loose git object`);
      return { type, data };
    }
    return undefined;
  };

  const readPacked = (id: string): RawObject | undefined => {
    for (const pack of allPacks()) {
      const offset = pack.find(id);
      if (offset !== undefined) return pack.read(offset, read);
    }
    return undefined;
  };

  const read = (oid: string): RawObject | undefined => {
    const id = oid.toLowerCase();
    const known = kept.get(id);
    if (known) return known;
    const object = readPacked(id) ?? readLoose(id) ?? (refreshPacks() ? readPacked(id) : undefined);
    if (object) kept.set(id, object);
    return object;
  };

  const looseInfo = (oid: string): ObjectInfo | undefined => {
    for (const dir of directories) {
      const path = join(dir, oid.slice(0, 2), oid.slice(2));
      if (!existsSync(path)) continue;
      // The header (`blob 1234\0`) is in what the first bytes inflate to (past a block's code
      // tables); a cut stream is flushed, not an error.
      const head = inflateSync(readFileSync(path).subarray(0, LOOSE_PREFIX), { finishFlush: constants.Z_SYNC_FLUSH });
      const nul = head.indexOf(0);
      const [type, size] = head.subarray(0, Math.max(0, nul)).toString('latin1').split(' ');
      return nul > 0 && isObjectType(type) && /^\d+$/.test(size ?? '') ? { type, size: Number(size) } : undefined;
    }
    return undefined;
  };

  const packedInfo = (id: string): ObjectInfo | undefined => {
    for (const pack of allPacks()) {
      const offset = pack.find(id);
      if (offset !== undefined) return pack.info(offset, info);
    }
    return undefined;
  };

  // What headers said, by id (ids never change what they name): a warm server's next call reads none.
  const infos = new Map<string, ObjectInfo>();
  const info = (oid: string): ObjectInfo | undefined => {
    const id = oid.toLowerCase();
    const known = kept.get(id);
    if (known) return { type: known.type, size: known.data.byteLength };
    const said = infos.get(id);
    if (said) return said;
    let found: ObjectInfo | undefined;
    try {
      found = packedInfo(id) ?? looseInfo(id);
    } catch {
      // Damaged headers: reading the object reports the damage.
      return undefined;
    }
    if (found) {
      if (infos.size >= KEPT_INFOS) infos.clear();
      infos.set(id, found);
    }
    return found;
  };

  const inPacks = (id: string): boolean => [...allPacks()].some((pack) => pack.find(id) !== undefined);
  const isLoose = (id: string): boolean => directories.some((dir) => existsSync(join(dir, id.slice(0, 2), id.slice(2))));

  return {
    directories,
    read,
    info,
    has(oid) {
      const id = oid.toLowerCase();
      return kept.get(id) !== undefined || inPacks(id) || isLoose(id) || (refreshPacks() && inPacks(id));
    },
    expand(prefix) {
      const hex = prefix.toLowerCase();
      refreshPacks();
      const found = new Set<string>();
      for (const pack of allPacks()) for (const oid of pack.matching(hex)) found.add(oid);
      for (const dir of directories) {
        const fanout = join(dir, hex.slice(0, 2));
        if (!existsSync(fanout)) continue;
        for (const name of readdirSync(fanout)) if (`${hex.slice(0, 2)}${name}`.startsWith(hex)) found.add(`${hex.slice(0, 2)}${name}`);
      }
      return [...found].sort();
    },
    close() {
      for (const pack of packs?.values() ?? []) pack.close();
      packs = undefined;
    },
  };
}

const shared = new Map<string, ObjectDatabase>();
/** Closes a database that left the shared set once nothing uses it any more (its packs' files). */
const unused = new FinalizationRegistry<ObjectDatabase['close']>((close) => close());

/**
 * The database of `gitdir`, the same one for every caller in this process while it is among the
 * {@link SHARED_DATABASES} most recently asked for. One that drops out stays usable by whoever
 * holds it and closes its packs once it is garbage.
 */
export function sharedObjectDatabase(gitdir: string): ObjectDatabase {
  const key = resolve(gitdir);
  const found = shared.get(key);
  if (found) {
    shared.delete(key);
    shared.set(key, found);
    return found;
  }
  const db = openObjectDatabase(key);
  shared.set(key, db);
  for (const [oldest, old] of shared) {
    if (shared.size <= SHARED_DATABASES) break;
    shared.delete(oldest);
    // `close` keeps the packs, not the database: the database can still become garbage.
    unused.register(old, old.close);
  }
  return db;
}

function modified(dir: string): number {
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return -1;
  }
}

function isObjectType(type: string | undefined): type is ObjectType {
  return type === 'commit' || type === 'tree' || type === 'blob' || type === 'tag';
}

/** The repository's own object directory, then its alternates in git's order. */
function objectDirectories(own: string): string[] {
  const seen: string[] = [];
  const visit = (dir: string, depth: number): void => {
    if (seen.includes(dir) || depth > MAX_ALTERNATE_DEPTH) return;
    seen.push(dir);
    const file = join(dir, 'info', 'alternates');
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const entry = line.trim();
      if (entry === '' || entry.startsWith('#')) continue;
      visit(isAbsolute(entry) ? entry : resolve(dir, entry), depth + 1);
    }
  };
  visit(own, 0);
  return seen;
}
