/**
 * @module sources/git/memory-fs-node
 * The nodes, stats, paths and errors behind the in-memory file system, shaped like Node's so
 * isomorphic-git cannot tell the difference.
 */

export type MemoryNode =
  | { kind: 'file'; data: Uint8Array; mtimeMs: number }
  | { kind: 'dir'; children: Set<string>; mtimeMs: number }
  | { kind: 'symlink'; target: string; mtimeMs: number };

export interface MemoryStats {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  uid: number;
  gid: number;
  dev: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

export function statsOf(node: MemoryNode, ino: number): MemoryStats {
  const size = node.kind === 'file' ? node.data.byteLength : node.kind === 'symlink' ? node.target.length : 0;
  const mode = node.kind === 'file' ? 0o100644 : node.kind === 'dir' ? 0o40755 : 0o120000;
  return {
    type: node.kind,
    mode,
    size,
    ino,
    mtimeMs: node.mtimeMs,
    ctimeMs: node.mtimeMs,
    uid: 1,
    gid: 1,
    dev: 1,
    isFile: () => node.kind === 'file',
    isDirectory: () => node.kind === 'dir',
    isSymbolicLink: () => node.kind === 'symlink',
  };
}

/** Absolute, `/`-separated, no `.` or `..` segments; `..` at the root stays at the root. */
export function normalise(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}

export function parentPath(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function fsError(code: string, path: string): Error & { code: string } {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}
