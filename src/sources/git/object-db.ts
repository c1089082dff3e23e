/**
 * @module sources/git/object-db
 * A local repository's object database as git lays it out: loose objects and packs in
 * `objects/`, plus every object directory named in `objects/info/alternates` (clones made with
 * `--shared` or `--reference`, recursively, as git allows). Read synchronously: a CLI run reads a
 * few hundred small objects, and positioned reads of page-cached files beat a promise per read.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { openPackFile, type ObjectType, type PackFile, type RawObject } from './pack-file.ts';

/** Git stops following alternates this deep. */
const MAX_ALTERNATE_DEPTH = 5;

export interface ObjectDatabase {
  read(oid: string): RawObject | undefined;
  /** Whether some store holds `oid`, without reading it (a pack's index, a loose file's name). */
  has(oid: string): boolean;
  /** Object ids that start with a short hex prefix, from every store. */
  expand(prefix: string): string[];
  /** The object directories searched, the repository's own first. */
  readonly directories: readonly string[];
}

export function openObjectDatabase(gitdir: string): ObjectDatabase {
  const directories = objectDirectories(join(gitdir, 'objects'));
  let packs: PackFile[] | undefined;
  const allPacks = (): PackFile[] =>
    (packs ??= directories.flatMap((dir) => {
      const packDir = join(dir, 'pack');
      if (!existsSync(packDir)) return [];
      return readdirSync(packDir)
        .filter((name) => name.endsWith('.idx'))
        .sort()
        .map((name) => openPackFile(join(packDir, name), join(packDir, `${name.slice(0, -4)}.pack`)));
    }));

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

  const read = (oid: string): RawObject | undefined => {
    const id = oid.toLowerCase();
    for (const pack of allPacks()) {
      const offset = pack.find(id);
      if (offset !== undefined) return pack.read(offset, read);
    }
    return readLoose(id);
  };

  return {
    directories,
    read,
    has(oid) {
      const id = oid.toLowerCase();
      return allPacks().some((pack) => pack.find(id) !== undefined) || directories.some((dir) => existsSync(join(dir, id.slice(0, 2), id.slice(2))));
    },
    expand(prefix) {
      const hex = prefix.toLowerCase();
      const found = new Set<string>();
      for (const pack of allPacks()) for (const oid of pack.matching(hex)) found.add(oid);
      for (const dir of directories) {
        const fanout = join(dir, hex.slice(0, 2));
        if (!existsSync(fanout)) continue;
        for (const name of readdirSync(fanout)) if (`${hex.slice(0, 2)}${name}`.startsWith(hex)) found.add(`${hex.slice(0, 2)}${name}`);
      }
      return [...found].sort();
    },
  };
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
