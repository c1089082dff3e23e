/**
 * @module sources/git/snapshot-fs
 * A read-only, memoising view of a local `.git` for the lifetime of one snapshot.
 *
 * isomorphic-git looks every object up from scratch: it stats the gitdir, tries a loose object
 * file (an ENOENT for nearly every object in a packed repository) and lists `objects/pack`.
 * Walking a tree of ten thousand entries did that thousands of times. The objects of a commit
 * that was resolved before the snapshot was made do not change, so directory listings and
 * stats are remembered, and a loose-object read is skipped when its fan-out directory lacks it.
 *
 * Refs are never read through this view: `resolve` must see new commits.
 */

/** The part of `fs.promises` isomorphic-git reads through; Node's `fs.promises` fits. */
export interface ReadablePromiseFs {
  readFile(path: string, options?: unknown): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<unknown>;
  lstat(path: string): Promise<unknown>;
  readlink(path: string, options?: unknown): Promise<unknown>;
}

export interface ReadOnlyFs {
  promises: ReadablePromiseFs & {
    writeFile(path: string): Promise<never>;
    mkdir(path: string): Promise<never>;
    rmdir(path: string): Promise<never>;
    unlink(path: string): Promise<never>;
    symlink(target: string, path: string): Promise<never>;
  };
}

const PROBE_ERROR = Object.assign(new Error('EINVAL: readFile needs a path'), { code: 'EINVAL' });

const LOOSE_OBJECT = /^(.*\/objects\/[0-9a-f]{2})\/([0-9a-f]{38,62})$/;

export function createSnapshotFs(fs: ReadablePromiseFs): ReadOnlyFs {
  const listings = new Map<string, Promise<string[]>>();
  const looseNames = new Map<string, Promise<Set<string>>>();
  const stats = new Map<string, Promise<unknown>>();
  const lstats = new Map<string, Promise<unknown>>();

  const memo = <T>(map: Map<string, Promise<T>>, path: string, run: () => Promise<T>): Promise<T> => {
    let hit = map.get(path);
    if (!hit) {
      hit = run();
      map.set(path, hit);
    }
    return hit;
  };

  const readdir = (path: string): Promise<string[]> => memo(listings, path, () => fs.readdir(path));
  const refuse = async (path: string): Promise<never> => {
    throw Object.assign(new Error(`EROFS: read-only snapshot view: ${path}`), { code: 'EROFS' });
  };

  return {
    promises: {
      async readFile(path, options) {
        // isomorphic-git probes for a promise API by calling readFile() with no path, once per
        // command; Node answers with a costly validation error, so the probe is answered here.
        if (typeof path !== 'string') throw PROBE_ERROR;
        const loose = LOOSE_OBJECT.exec(path);
        if (loose?.[1] !== undefined && loose[2] !== undefined) {
          const fanout = loose[1];
          const names = await memo(looseNames, fanout, async () => new Set(await readdir(fanout).catch(() => [])));
          if (!names.has(loose[2])) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
        }
        return fs.readFile(path, options);
      },
      readdir,
      stat: (path) => memo(stats, path, () => fs.stat(path)),
      lstat: (path) => memo(lstats, path, () => fs.lstat(path)),
      readlink: (path, options) => fs.readlink(path, options),
      writeFile: refuse,
      mkdir: refuse,
      rmdir: refuse,
      unlink: refuse,
      symlink: (_target, path) => refuse(path),
    },
  };
}
