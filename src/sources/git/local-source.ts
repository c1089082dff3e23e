/**
 * @module sources/git/local-source
 * A repository on local disk, read through its git directory only: what a snapshot shows is what
 * was committed. Uncommitted edits, the index and untracked files never enter, because nothing
 * here looks at the working tree. Objects are read straight from loose files and packs (see
 * object-db), so a large pack costs only the bytes of the objects a run needs; every kind of
 * checkout git makes is read (bare, linked worktree, submodule, alternates, shallow, partial), and
 * one that cannot be read says which kind it is and what to do.
 *
 * Identity is `file://<absolute path>`; entry URIs follow {@link gitPathUri}.
 *
 * @example
 * const source = createLocalGitSource('.');
 * const head = await source.resolve('HEAD');
 * if (head.status === 'ok') await source.snapshot(head.commit).read('AGENTS.md', { maxBytes: 65536 });
 */
import { resolve as resolvePath } from 'node:path';
import { parseCommitObject } from '../commit-info.ts';
import type { RepositorySource, ResolveResult } from '../snapshot.ts';
import type { FlatTreeEntry, TreeLoader } from '../tree-loader.ts';
import { createTreeSnapshot } from '../tree-snapshot.ts';
import { normalisePath } from '../paths.ts';
import { byteLru } from '../../lib/byte-lru.ts';
import { parseAncestry, walkAncestry } from './ancestry.ts';
import { errorMessage } from './errors.ts';
import { gitdirFs } from './small-files.ts';
import { locateGitdir } from './gitdir.ts';
import { kindOfMode } from './tree-mode.ts';
import { sharedObjectDatabase, type ObjectDatabase } from './object-db.ts';
import type { RawObject } from './pack-file.ts';
import { isValidRefName } from './ref-name.ts';
import { resolveRefName } from './refs.ts';
import { missingObjectReason, repositoryKind, type RepositoryKind } from './repository-kind.ts';
import { parseTree, type TreeObjectEntry } from './tree-object.ts';
import { gitPathUri } from './uri.ts';

const FULL_SHA = /^[0-9a-f]{40}$/i;
const SHORT_SHA = /^[0-9a-f]{4,39}$/i;
/** Tags of tags are legal; a loop of them is not, so peeling is bounded. */
const MAX_TAG_DEPTH = 16;

/**
 * Directory listings by tree id and path, for every source of this process: a tree never changes
 * under its id, so a listing made once is right for every later snapshot that meets the same tree.
 * The local MCP server opens a source per tool call; its warm calls list no tree again (issue 56).
 */
const listings = byteLru<string, readonly FlatTreeEntry[]>(8 * 1024 * 1024, (entries) => entries.reduce((sum, entry) => sum + 96 + 2 * entry.path.length, 64));

interface OpenRepository {
  headGitdir: string;
  gitdir: string;
  kind: RepositoryKind;
  db: ObjectDatabase;
}

type Opened = { ok: true; repo: OpenRepository } | { ok: false; reason: string };

export function createLocalGitSource(dir: string): RepositorySource {
  const root = resolvePath(dir);
  const repository = `file://${root}`;
  let opened: Promise<Opened> | undefined;
  const open = (): Promise<Opened> => {
    // Only a found repository is remembered: a directory may become one later.
    opened ??= locateGitdir(gitdirFs, root).then((where): Opened => {
      if (!where.ok) {
        opened = undefined;
        return where;
      }
      const kind = repositoryKind(where.gitdir);
      if (kind.unsupported) return { ok: false, reason: kind.unsupported };
      return { ok: true, repo: { ...where, kind, db: sharedObjectDatabase(where.gitdir) } };
    });
    return opened;
  };

  /** The first failure of the repository itself, as `unreadable()` reports it. */
  let damage: string | undefined;
  const damaged = (reason: string): Error => {
    damage ??= reason;
    return new Error(reason);
  };
  /** An object read that tells a damaged store (a truncated pack, a corrupt loose object) apart. */
  const readObject = (repo: OpenRepository, oid: string): RawObject | undefined => {
    try {
      return repo.db.read(oid);
    } catch (error) {
      throw damaged(errorMessage(error));
    }
  };
  const need = (repo: OpenRepository, oid: string, what: string): RawObject => {
    const object = readObject(repo, oid);
    if (!object) throw damaged(missingObjectReason(repo.kind, root, oid, what));
    return object;
  };

  return {
    repository,

    unreadable: () => damage,

    async resolve(ref, { signal } = {}): Promise<ResolveResult> {
      signal?.throwIfAborted();
      // On disk, `HEAD~1` and `main^2` mean what git means by them.
      const ancestry = parseAncestry(ref);
      if (ancestry && 'error' in ancestry) return { status: 'failed', ref, reason: ancestry.error };
      const base = ancestry?.base ?? ref;
      if (!isValidRefName(base)) return { status: 'failed', ref, reason: `invalid ref name: ${JSON.stringify(ref)}` };
      try {
        const where = await open();
        if (!where.ok) return { status: 'failed', ref, reason: where.reason };
        const { repo } = where;
        const oid = findObject(repo, base);
        if (oid === undefined) return { status: 'missing', ref };
        const peeled = peelToCommit(repo, oid, base);
        if (!ancestry) return peeled;
        if (peeled.status !== 'ok') return { ...peeled, ref };
        const commit = walkAncestry(peeled.commit, ancestry.steps, (id) => parseCommitObject(id, Buffer.from(need(repo, id, 'commit').data).toString('utf8')).parents);
        if (commit === undefined) return { status: 'missing', ref };
        // A parent named by a commit may be absent (the edge of a shallow clone): a pin must be readable.
        const pinned = peelToCommit(repo, commit, ref);
        return pinned.status === 'ok' ? pinned : { ...pinned, ref };
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        return { status: 'failed', ref, reason: errorMessage(error) };
      }
    },

    snapshot(commit, { signal } = {}) {
      const repo = async (): Promise<OpenRepository> => {
        const where = await open();
        if (!where.ok) throw new Error(where.reason);
        return where.repo;
      };
      const loader: TreeLoader = {
        loadTree: async (signal) => walkTree(await repo(), commit, signal),
        loadDirectory: async (tree, path, signal) => {
          const store = await repo();
          signal?.throwIfAborted();
          return readDirectory(store, tree ?? rootTreeOf(store, commit), path);
        },
        async loadBlob(oid, signal) {
          const store = await repo();
          signal?.throwIfAborted();
          const object = need(store, oid, 'file');
          if (object.type !== 'blob') throw new Error(`${oid} is a ${object.type}, not a file`);
          return object.data;
        },
        async blobSize(oid, signal) {
          const store = await repo();
          signal?.throwIfAborted();
          const info = store.db.info(oid);
          return info?.type === 'blob' ? info.size : undefined;
        },
        async loadCommit(signal) {
          const store = await repo();
          signal?.throwIfAborted();
          const object = need(store, commit, 'commit');
          if (object.type !== 'commit') throw new Error(`${commit} is a ${object.type}, not a commit`);
          return parseCommitObject(commit, Buffer.from(object.data).toString('utf8'));
        },
      };
      return createTreeSnapshot({ repository, commit, uri: (path) => gitPathUri(repository, commit, path), loader, ...(signal ? { signal } : {}) });
    },
  };

  /** Git's own precedence: a full sha is an object name; otherwise refs win over short shas. */
  function findObject(repo: OpenRepository, ref: string): string | undefined {
    if (FULL_SHA.test(ref)) return ref.toLowerCase();
    const named = resolveRefName({ head: repo.headGitdir, common: repo.gitdir }, ref);
    if (named !== undefined || !SHORT_SHA.test(ref)) return named;
    const matches = repo.db.expand(ref);
    if (matches.length > 1) throw new Error(`short commit id ${ref} is ambiguous: ${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}`);
    return matches[0];
  }

  function peelToCommit(repo: OpenRepository, oid: string, ref: string): ResolveResult {
    let current = oid;
    for (let depth = 0; depth < MAX_TAG_DEPTH; depth++) {
      const object = readObject(repo, current);
      if (!object) {
        // A named sha that is absent: in a shallow or partial clone that is a fetch away.
        if (current === oid && FULL_SHA.test(ref) && !repo.kind.shallow && repo.kind.partialFilter === undefined) return { status: 'missing', ref };
        const reason = missingObjectReason(repo.kind, root, current, 'commit');
        damage ??= reason;
        return { status: 'failed', ref, reason };
      }
      if (object.type === 'commit') return { status: 'ok', commit: current };
      if (object.type !== 'tag') return { status: 'failed', ref, reason: `${oid} names a ${object.type}, not a commit` };
      const target = /^object ([0-9a-f]{40})$/m.exec(Buffer.from(object.data).toString('latin1'))?.[1];
      if (target === undefined) return { status: 'failed', ref, reason: `tag ${current} has no object line` };
      current = target;
    }
    return { status: 'failed', ref, reason: `${oid} is nested more than ${MAX_TAG_DEPTH} tags deep` };
  }

  /** Every entry under the commit's root tree. Sizes are left out: a listing must not read every blob. */
  async function walkTree(repo: OpenRepository, commit: string, signal?: AbortSignal): Promise<FlatTreeEntry[]> {
    const entries: FlatTreeEntry[] = [];
    const pending: Array<[string, string]> = [[rootTreeOf(repo, commit), '']];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      signal?.throwIfAborted();
      for (const entry of readDirectory(repo, ...next)) {
        entries.push(entry);
        if (entry.kind === 'dir') pending.push([entry.oid, entry.path]);
      }
    }
    return entries;
  }

  function rootTreeOf(repo: OpenRepository, commit: string): string {
    const object = need(repo, commit, 'commit');
    const tree = /^tree ([0-9a-f]{40})$/m.exec(Buffer.from(object.data).toString('latin1'))?.[1];
    if (object.type !== 'commit') throw new Error(`${commit} is not a commit`);
    if (tree === undefined) throw damaged(`commit ${commit} names no tree: the object is damaged (git fsck may say why)`);
    return tree;
  }

  /** One tree's entries with their paths from the root (frozen: listings are shared, see `listings`). */
  function readDirectory(repo: OpenRepository, treeOid: string, prefix: string): FlatTreeEntry[] {
    const key = `${treeOid}\0${prefix}`;
    const listed = listings.get(key);
    if (listed) return [...listed];
    const entries = listDirectory(repo, treeOid, prefix);
    listings.set(key, entries.map((entry) => Object.freeze(entry)));
    return entries;
  }

  function listDirectory(repo: OpenRepository, treeOid: string, prefix: string): FlatTreeEntry[] {
    const tree = need(repo, treeOid, 'tree');
    if (tree.type !== 'tree') throw new Error(`${treeOid} is a ${tree.type}, not a tree`);
    const entries: FlatTreeEntry[] = [];
    let items: TreeObjectEntry[];
    try {
      items = parseTree(tree.data);
    } catch (error) {
      throw damaged(`tree ${treeOid}: ${errorMessage(error)} (git fsck may say why)`);
    }
    for (const item of items) {
      const kind = kindOfMode(item.mode);
      const path = prefix === '' ? item.name : `${prefix}/${item.name}`;
      // A crafted tree may name an entry `..` or put a backslash in it; such a path could
      // never be read back safely, so it is left out of the listing altogether.
      const normal = normalisePath(path);
      if (kind && normal.ok && normal.path === path) entries.push({ path, kind, oid: item.oid });
    }
    return entries;
  }
}
