/**
 * @module test/support/git-objects
 * Reads a real git repository with the git CLI, answering in the shapes the GitHub git-data API
 * uses. The local GitHub API server serves from here, so every answer is what git says.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gitEnv } from './git-fixtures.ts';

const run = promisify(execFile);

export interface GitTreeItem {
  path: string;
  mode: string;
  type: string;
  sha: string;
  size?: number;
}

export interface GitObjects {
  /** Reads every blob into memory with one git process, so later answers spawn nothing. */
  preloadBlobs(): Promise<void>;
  /** Commit id for a ref, or undefined when git cannot resolve it to a commit. */
  commitOf(ref: string): Promise<string | undefined>;
  /** The object a rev-parse expression (`main`, `v1`, `<sha>:docs`) names, unpeeled. */
  objectOf(expression: string): Promise<{ oid: string; type: 'commit' | 'tree' | 'blob' | 'tag' } | undefined>;
  /** An annotated tag's target. */
  tagTarget(oid: string): Promise<string | undefined>;
  /** The tree id and its entries (recursive includes subtrees), or undefined for a non-tree. */
  tree(treeish: string, recursive: boolean): Promise<{ sha: string; items: GitTreeItem[] } | undefined>;
  blob(sha: string): Promise<Buffer | undefined>;
}

export function gitObjects(repoDir: string): GitObjects {
  const git = async (args: string[]): Promise<Buffer | undefined> => {
    try {
      const { stdout } = await run('git', ['-C', repoDir, ...args], { encoding: 'buffer', env: gitEnv(), maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    } catch {
      return undefined;
    }
  };
  // A ref that starts with '-' would be read by git as an option.
  const safe = (name: string): boolean => name !== '' && !name.startsWith('-');
  // Blobs are immutable by id: remembering them keeps answers fast and steady on a loaded
  // machine, so round-trip counts measure the client, not git start-up time.
  const blobs = new Map<string, Promise<Buffer | undefined>>();

  return {
    async preloadBlobs() {
      const out = await git(['cat-file', '--batch-all-objects', '--batch', '--unordered']);
      if (!out) return;
      // Records are `<sha> <type> <size>\n<content>\n`.
      for (let at = 0; at < out.length; ) {
        const eol = out.indexOf(0x0a, at);
        const [sha = '', type = '', size = '0'] = out.subarray(at, eol).toString('utf8').split(' ');
        const content = out.subarray(eol + 1, eol + 1 + Number(size));
        if (type === 'blob') blobs.set(sha, Promise.resolve(Buffer.from(content)));
        at = eol + 1 + Number(size) + 1;
      }
    },
    async commitOf(ref) {
      if (!safe(ref)) return undefined;
      const out = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
      return out?.toString('utf8').trim() || undefined;
    },
    async objectOf(expression) {
      if (!safe(expression)) return undefined;
      const oid = (await git(['rev-parse', '--verify', '--quiet', expression]))?.toString('utf8').trim();
      if (!oid) return undefined;
      const type = (await git(['cat-file', '-t', oid]))?.toString('utf8').trim();
      return type === 'commit' || type === 'tree' || type === 'blob' || type === 'tag' ? { oid, type } : undefined;
    },
    async tagTarget(oid) {
      const out = await git(['cat-file', 'tag', oid]);
      return /^object ([0-9a-f]{40})$/m.exec(out?.toString('utf8') ?? '')?.[1];
    },
    async tree(treeish, recursive) {
      if (!safe(treeish)) return undefined;
      const sha = (await git(['rev-parse', '--verify', '--quiet', `${treeish}^{tree}`]))?.toString('utf8').trim();
      if (!sha) return undefined;
      const out = await git(['ls-tree', '-z', '-l', ...(recursive ? ['-r', '-t'] : []), sha]);
      if (!out) return undefined;
      const items = out
        .toString('utf8')
        .split('\0')
        .filter((line) => line !== '')
        .map(parseLsTreeLine);
      return { sha, items };
    },
    blob(sha) {
      if (!safe(sha)) return Promise.resolve(undefined);
      let blob = blobs.get(sha);
      if (!blob) {
        blob = git(['cat-file', '-t', sha]).then((type) => (type?.toString('utf8').trim() === 'blob' ? git(['cat-file', 'blob', sha]) : undefined));
        blobs.set(sha, blob);
        // Only answers are remembered; a failed read (or a non-blob) is asked again next time.
        void blob.then((bytes) => bytes ?? blobs.delete(sha));
      }
      return blob;
    },
  };
}

/** `<mode> <type> <sha> <size>\t<path>`, size `-` for trees and submodules. */
function parseLsTreeLine(line: string): GitTreeItem {
  const match = /^(\d+) (\w+) ([0-9a-f]+) +(\S+)\t(.*)$/s.exec(line);
  if (!match) throw new Error(`unexpected ls-tree line: ${line}`);
  const [, mode = '', type = '', sha = '', size = '-', path = ''] = match;
  return { path, mode, type, sha, ...(size === '-' ? {} : { size: Number(size) }) };
}
