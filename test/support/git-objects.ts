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

export interface GitSignature {
  name: string;
  email: string;
  /** ISO 8601 in UTC, as GitHub's git-data API writes it. */
  date: string;
}

export interface GitCommitObject {
  sha: string;
  tree: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
  message: string;
}

/** One changed file between two commits, as `git diff` reports it. */
export interface GitChangedFile {
  /** git's status letter: A, D, M, R (renamed), C (copied), T (type changed). */
  status: string;
  path: string;
  previousPath?: string;
  /** Undefined for binary files, which git does not count in lines. */
  additions?: number;
  deletions?: number;
  /** Blob id of the new side (of the old side for a deleted file). */
  blob: string;
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
  /** The commit object named by a full sha, or undefined when `sha` is not a commit. */
  commit(sha: string): Promise<GitCommitObject | undefined>;
  /** Files changed from the merge base of `base` and `head` to `head` (`git diff base...head`), in path order. */
  diff(base: string, head: string): Promise<GitChangedFile[] | undefined>;
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
  // So is what an expression rooted at a full commit or tree id names (`<sha>:docs/AGENTS.md`):
  // a GraphQL read-ahead asks for hundreds, two git processes each, which on a loaded machine
  // took the server seconds per query (bench/first-turn); and the listings of such trees. Refs
  // (`main`) move and are asked again.
  const named = new Map<string, Promise<{ oid: string; type: 'commit' | 'tree' | 'blob' | 'tag' } | undefined>>();
  const immutable = (expression: string): boolean => /^[0-9a-f]{40}(?::|$)/.test(expression);
  // And what a full id names as a commit, and that commit: a pull request's files, its check run
  // and a GraphQL commit's dates asked git two processes each time (30-90 ms an answer on this
  // machine, which the first-turn bench counted as GitHub's latency).
  const commitIds = new Map<string, Promise<string | undefined>>();
  const commits = new Map<string, Promise<GitCommitObject | undefined>>();
  const trees = new Map<string, Promise<{ sha: string; items: GitTreeItem[] } | undefined>>();
  const listTree = async (treeish: string, recursive: boolean): Promise<{ sha: string; items: GitTreeItem[] } | undefined> => {
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
  };
  const diffs = new Map<string, Promise<GitChangedFile[] | undefined>>();
  const diffOf = async (base: string, head: string): Promise<GitChangedFile[] | undefined> => {
    const range = `${base}...${head}`;
    const [raw, numstat] = await Promise.all([
      git(['diff', '--raw', '-z', '-M', '--no-abbrev', range]),
      git(['diff', '--numstat', '-z', '-M', range]),
    ]);
    if (!raw || !numstat) return undefined;
    return mergeDiff(raw.toString('utf8'), numstat.toString('utf8'));
  };
  // Blobs asked for in the same turn of the event loop are read by one `cat-file --batch`: a
  // GraphQL answer asks for dozens at once, and a git process each took seconds on a loaded machine.
  let waiting: Map<string, Array<(bytes: Buffer | undefined) => void>> | undefined;
  const batchedBlob = (sha: string) =>
    new Promise<Buffer | undefined>((resolve) => {
      if (!waiting) {
        waiting = new Map();
        setImmediate(() => void readBatch());
      }
      waiting.set(sha, [...(waiting.get(sha) ?? []), resolve]);
    });
  const readBatch = async () => {
    const batch = waiting ?? new Map<string, Array<(bytes: Buffer | undefined) => void>>();
    waiting = undefined;
    const found = parseBatch(await gitWithInput(['cat-file', '--batch'], `${[...batch.keys()].join('\n')}\n`));
    for (const [sha, resolvers] of batch) for (const resolve of resolvers) resolve(found.get(sha));
  };
  const gitWithInput = (args: string[], input: string) =>
    new Promise<Buffer | undefined>((resolve) => {
      const child = execFile('git', ['-C', repoDir, ...args], { encoding: 'buffer', env: gitEnv(), maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => resolve(error ? undefined : stdout));
      child.stdin?.end(input);
    });
  const lookUp = async (expression: string): Promise<{ oid: string; type: 'commit' | 'tree' | 'blob' | 'tag' } | undefined> => {
    const oid = (await git(['rev-parse', '--verify', '--quiet', expression]))?.toString('utf8').trim();
    if (!oid) return undefined;
    const type = (await git(['cat-file', '-t', oid]))?.toString('utf8').trim();
    return type === 'commit' || type === 'tree' || type === 'blob' || type === 'tag' ? { oid, type } : undefined;
  };

  return {
    async preloadBlobs() {
      for (const [sha, content] of parseBatch(await git(['cat-file', '--batch-all-objects', '--batch', '--unordered']))) blobs.set(sha, Promise.resolve(content));
    },
    commitOf(ref) {
      if (!safe(ref)) return Promise.resolve(undefined);
      const resolve = async () => (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]))?.toString('utf8').trim() || undefined;
      return immutable(ref) && !ref.includes(':') ? remembered(commitIds, ref, resolve) : resolve();
    },
    async objectOf(expression) {
      if (!safe(expression)) return undefined;
      if (!immutable(expression)) return lookUp(expression);
      let found = named.get(expression);
      if (!found) {
        const root = expression.slice(0, 40);
        // An absent path stays absent only under a commit that exists; a sha git lacks may come later.
        found = lookUp(expression).then(async (result) => {
          if (result === undefined && (expression === root || (await lookUp(root)) === undefined)) named.delete(expression);
          return result;
        });
        named.set(expression, found);
      }
      return found;
    },
    async tagTarget(oid) {
      const out = await git(['cat-file', 'tag', oid]);
      return /^object ([0-9a-f]{40})$/m.exec(out?.toString('utf8') ?? '')?.[1];
    },
    tree(treeish, recursive) {
      if (!safe(treeish)) return Promise.resolve(undefined);
      if (!immutable(treeish)) return listTree(treeish, recursive);
      const key = `${recursive ? 'r' : 'd'} ${treeish}`;
      let listed = trees.get(key);
      if (!listed) {
        listed = listTree(treeish, recursive);
        trees.set(key, listed);
        // Only answers are remembered, as for blobs.
        void listed.then((answer) => answer ?? trees.delete(key));
      }
      return listed;
    },
    commit(sha) {
      if (!/^[0-9a-f]{40}$/.test(sha)) return Promise.resolve(undefined);
      return remembered(commits, sha, async () => {
        if ((await git(['cat-file', '-t', sha]))?.toString('utf8').trim() !== 'commit') return undefined;
        const out = await git(['cat-file', 'commit', sha]);
        return out ? parseCommit(sha, out.toString('utf8')) : undefined;
      });
    },
    async diff(base, head) {
      if (!safe(base) || !safe(head)) return undefined;
      // Branches move (tests push to them), commits do not: the diff of two commits is kept, so
      // every page of a 3,000-file listing costs one rev-parse, not two diffs of every file.
      const [from, to] = await Promise.all([this.commitOf(base), this.commitOf(head)]);
      if (!from || !to) return undefined;
      const key = `${from}...${to}`;
      let found = diffs.get(key);
      if (!found) {
        found = diffOf(from, to);
        diffs.set(key, found);
        void found.then((answer) => answer ?? diffs.delete(key));
      }
      return found;
    },
    blob(sha) {
      if (!safe(sha)) return Promise.resolve(undefined);
      let blob = blobs.get(sha);
      if (!blob) {
        blob = batchedBlob(sha);
        blobs.set(sha, blob);
        // Only answers are remembered; a failed read (or a non-blob) is asked again next time.
        void blob.then((bytes) => bytes ?? blobs.delete(sha));
      }
      return blob;
    },
  };
}

/** `<mode> <type> <sha> <size>\t<path>`, size `-` for trees and submodules. */
/** The blobs of `cat-file --batch` output: records are `<sha> <type> <size>\n<content>\n`, or `<name> missing\n`. */
function parseBatch(out: Buffer | undefined): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  if (!out) return found;
  for (let at = 0; at < out.length; ) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [sha = '', type = '', size] = out.subarray(at, eol).toString('utf8').split(' ');
    if (size === undefined) {
      at = eol + 1;
      continue;
    }
    const content = out.subarray(eol + 1, eol + 1 + Number(size));
    if (type === 'blob') found.set(sha, Buffer.from(content));
    at = eol + 1 + Number(size) + 1;
  }
  return found;
}

function parseLsTreeLine(line: string): GitTreeItem {
  const match = /^(\d+) (\w+) ([0-9a-f]+) +(\S+)\t(.*)$/s.exec(line);
  if (!match) throw new Error(`unexpected ls-tree line: ${line}`);
  const [, mode = '', type = '', sha = '', size = '-', path = ''] = match;
  return { path, mode, type, sha, ...(size === '-' ? {} : { size: Number(size) }) };
}

function parseCommit(sha: string, text: string): GitCommitObject {
  const end = text.indexOf('\n\n');
  const headers = (end < 0 ? text : text.slice(0, end)).split('\n');
  const field = (name: string) => headers.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));
  const signature = (line = ''): GitSignature => {
    const match = /^(.*) <(.*)> (\d+) [+-]\d{4}$/.exec(line);
    if (!match) throw new Error(`unexpected signature in commit ${sha}: ${line}`);
    return { name: match[1] ?? '', email: match[2] ?? '', date: new Date(Number(match[3]) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  };
  return {
    sha,
    tree: field('tree')[0] ?? '',
    parents: field('parent'),
    author: signature(field('author')[0]),
    committer: signature(field('committer')[0]),
    message: end < 0 ? '' : text.slice(end + 2),
  };
}

/**
 * `--raw -z` gives `:<modes> <old> <new> <status>\0<path>\0[<new path>\0]`; `--numstat -z` gives
 * `<added>\t<deleted>\t<path>\0` or, for a rename, `<added>\t<deleted>\t\0<old>\0<new>\0`.
 */
function mergeDiff(raw: string, numstat: string): GitChangedFile[] {
  const counts = new Map<string, { additions?: number; deletions?: number }>();
  const stats = numstat.split('\0');
  for (let i = 0; i < stats.length; i++) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(stats[i] ?? '');
    if (!match) continue;
    let path = match[3] ?? '';
    if (path === '') {
      i += 2;
      path = stats[i] ?? '';
    }
    counts.set(path, match[1] === '-' ? {} : { additions: Number(match[1]), deletions: Number(match[2]) });
  }
  const files: GitChangedFile[] = [];
  const parts = raw.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const meta = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(parts[i] ?? '');
    if (!meta) continue;
    const [, oldBlob = '', newBlob = '', status = ''] = meta;
    const first = parts[++i] ?? '';
    const renamed = status === 'R' || status === 'C';
    const path = renamed ? (parts[++i] ?? '') : first;
    files.push({ status, path, ...(renamed ? { previousPath: first } : {}), ...counts.get(path), blob: status === 'D' ? oldBlob : newBlob });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `load`'s answer for `key`, asked once: an answer is kept, a miss is asked again (the object may come later). */
function remembered<T>(answers: Map<string, Promise<T | undefined>>, key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
  let found = answers.get(key);
  if (!found) {
    found = load();
    answers.set(key, found);
    void found.then((answer) => answer ?? answers.delete(key));
  }
  return found;
}
