/**
 * @module sources/git/memory-fs
 * A throwaway in-memory file system with the promise API isomorphic-git calls (readFile,
 * writeFile, mkdir, rmdir, unlink, stat, lstat, readdir, readlink, symlink). A Worker has no
 * disk, and a fetched repository only needs to live as long as one snapshot.
 *
 * Errors carry Node's `code` (ENOENT, EEXIST, ...) because isomorphic-git branches on it.
 */
import { baseName, fsError, normalise, parentPath, statsOf, type MemoryNode, type MemoryStats } from './memory-fs-node.ts';

type Encoding = 'utf8' | { encoding?: string | null } | undefined;

export interface MemoryFs {
  promises: {
    readFile(path: string, options?: Encoding): Promise<Uint8Array | string>;
    writeFile(path: string, data: Uint8Array | string, options?: Encoding): Promise<void>;
    mkdir(path: string, options?: unknown): Promise<void>;
    rmdir(path: string): Promise<void>;
    unlink(path: string): Promise<void>;
    stat(path: string): Promise<MemoryStats>;
    lstat(path: string): Promise<MemoryStats>;
    readdir(path: string): Promise<string[]>;
    readlink(path: string): Promise<string>;
    symlink(target: string, path: string): Promise<void>;
  };
  /** Bytes held in file contents, for tests and diagnostics. */
  size(): number;
}

const MAX_LINK_HOPS = 16;

export function createMemoryFs(): MemoryFs {
  const nodes = new Map<string, MemoryNode>([['/', { kind: 'dir', children: new Set(), mtimeMs: Date.now() }]]);

  const lookup = (path: string, follow: boolean): MemoryNode => {
    let current = normalise(path);
    for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
      const node = nodes.get(current);
      if (!node) throw fsError('ENOENT', path);
      if (!follow || node.kind !== 'symlink') return node;
      current = node.target.startsWith('/') ? normalise(node.target) : normalise(`${parentPath(current)}/${node.target}`);
    }
    throw fsError('ELOOP', path);
  };

  const parentDir = (path: string): Extract<MemoryNode, { kind: 'dir' }> => {
    const parent = nodes.get(parentPath(path));
    if (!parent) throw fsError('ENOENT', path);
    if (parent.kind !== 'dir') throw fsError('ENOTDIR', path);
    return parent;
  };

  const create = (path: string, node: MemoryNode): void => {
    const parent = parentDir(path);
    nodes.set(path, node);
    parent.children.add(baseName(path));
  };

  const remove = (path: string): void => {
    parentDir(path).children.delete(baseName(path));
    nodes.delete(path);
  };

  let inode = 0;
  const stats = (node: MemoryNode): MemoryStats => statsOf(node, ++inode);

  return {
    promises: {
      async readFile(path, options) {
        const node = lookup(path, true);
        if (node.kind !== 'file') throw fsError('EISDIR', path);
        return wantsText(options) ? new TextDecoder().decode(node.data) : node.data;
      },
      async writeFile(path, data) {
        const key = normalise(path);
        const existing = nodes.get(key);
        if (existing?.kind === 'dir') throw fsError('EISDIR', path);
        const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
        create(key, { kind: 'file', data: bytes, mtimeMs: Date.now() });
      },
      async mkdir(path) {
        const key = normalise(path);
        if (nodes.has(key)) throw fsError('EEXIST', path);
        create(key, { kind: 'dir', children: new Set(), mtimeMs: Date.now() });
      },
      async rmdir(path) {
        const key = normalise(path);
        const node = lookup(key, false);
        if (node.kind !== 'dir') throw fsError('ENOTDIR', path);
        if (node.children.size > 0) throw fsError('ENOTEMPTY', path);
        if (key === '/') throw fsError('EBUSY', path);
        remove(key);
      },
      async unlink(path) {
        const key = normalise(path);
        if (lookup(key, false).kind === 'dir') throw fsError('EPERM', path);
        remove(key);
      },
      stat: async (path) => stats(lookup(path, true)),
      lstat: async (path) => stats(lookup(path, false)),
      async readdir(path) {
        const node = lookup(path, true);
        if (node.kind !== 'dir') throw fsError('ENOTDIR', path);
        return [...node.children].sort();
      },
      async readlink(path) {
        const node = lookup(path, false);
        if (node.kind !== 'symlink') throw fsError('EINVAL', path);
        return node.target;
      },
      async symlink(target, path) {
        const key = normalise(path);
        if (nodes.has(key)) throw fsError('EEXIST', path);
        create(key, { kind: 'symlink', target, mtimeMs: Date.now() });
      },
    },
    size: () => [...nodes.values()].reduce((sum, node) => sum + (node.kind === 'file' ? node.data.byteLength : 0), 0),
  };
}

function wantsText(options: Encoding): boolean {
  return options === 'utf8' || (typeof options === 'object' && options.encoding === 'utf8');
}
