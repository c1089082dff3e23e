/**
 * @module sources/git/local-source
 * A repository on local disk, read through its `.git` only: what a snapshot shows is what was
 * committed. Uncommitted edits, the index and untracked files never enter, because nothing here
 * looks at the working tree.
 *
 * Identity is `file://<absolute path>`; entry URIs follow {@link gitPathUri}.
 *
 * @example
 * const source = createLocalGitSource('.');
 * const head = await source.resolve('HEAD');
 * if (head.status === 'ok') await source.snapshot(head.commit).read('AGENTS.md', { maxBytes: 65536 });
 */
import * as nodeFs from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { expandOid, resolveRef } from 'isomorphic-git';
import type { PromiseFsClient } from 'isomorphic-git';
import type { RepositorySource, ResolveResult } from '../snapshot.ts';
import { createTreeSnapshot } from '../tree-snapshot.ts';
import { locateGitdir, type GitdirLocation } from './gitdir.ts';
import { createGitObjectLoader, type GitObjectStore } from './object-loader.ts';
import { peelToCommit } from './peel.ts';
import { createSnapshotFs, type ReadablePromiseFs } from './snapshot-fs.ts';
import { errorMessage, gitErrorCode } from './errors.ts';
import { isValidRefName } from './ref-name.ts';
import { gitPathUri } from './uri.ts';

const FULL_SHA = /^[0-9a-f]{40}$/i;
const SHORT_SHA = /^[0-9a-f]{4,39}$/i;

/** Node's `fs` module, or anything with the same promise API. */
export type LocalFs = PromiseFsClient & { promises: ReadablePromiseFs };

export function createLocalGitSource(dir: string, fs: LocalFs = nodeFs): RepositorySource {
  const root = resolvePath(dir);
  const repository = `file://${root}`;
  // Parsed pack indexes, shared by resolve and every snapshot of this source.
  const cache = {};
  let located: Promise<GitdirLocation> | undefined;
  const locate = (): Promise<GitdirLocation> => {
    // Only a found gitdir is remembered: a directory may become a repository later.
    located ??= locateGitdir(fs.promises, root).then((location) => {
      if (!location.ok) located = undefined;
      return location;
    });
    return located;
  };

  /** Git's own precedence: a full sha is an object name; otherwise refs win over short shas. */
  const findObject = async (where: Extract<GitdirLocation, { ok: true }>, ref: string): Promise<string | undefined> => {
    if (FULL_SHA.test(ref)) return ref.toLowerCase();
    const store = { fs, gitdir: where.gitdir, cache };
    try {
      // A linked worktree's HEAD is its own; what it points at lives in the common gitdir.
      const name = ref === 'HEAD' ? await resolveRef({ fs, gitdir: where.headGitdir, ref, depth: 1 }) : ref;
      return FULL_SHA.test(name) ? name : await resolveRef({ ...store, ref: name });
    } catch (error) {
      if (gitErrorCode(error) !== 'NotFoundError') throw error;
    }
    if (!SHORT_SHA.test(ref)) return undefined;
    try {
      return await expandOid({ ...store, oid: ref.toLowerCase() });
    } catch (error) {
      if (gitErrorCode(error) === 'NotFoundError') return undefined;
      throw error;
    }
  };

  return {
    repository,

    async resolve(ref, { signal } = {}): Promise<ResolveResult> {
      signal?.throwIfAborted();
      if (!isValidRefName(ref)) return { status: 'failed', ref, reason: `invalid ref name: ${JSON.stringify(ref)}` };
      try {
        const where = await locate();
        if (!where.ok) return { status: 'failed', ref, reason: where.reason };
        const oid = await findObject(where, ref);
        if (oid === undefined) return { status: 'missing', ref };
        const peeled = await peelToCommit({ fs, gitdir: where.gitdir, cache }, oid);
        return peeled.ok ? { status: 'ok', commit: peeled.commit } : { status: 'failed', ref, reason: peeled.reason };
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (gitErrorCode(error) === 'NotFoundError') return { status: 'missing', ref };
        return { status: 'failed', ref, reason: errorMessage(error) };
      }
    },

    snapshot(commit, { signal } = {}) {
      const snapshotFs = createSnapshotFs(fs.promises);
      const objects = async (): Promise<GitObjectStore> => {
        const where = await locate();
        if (!where.ok) throw new Error(where.reason);
        return { fs: snapshotFs, gitdir: where.gitdir, cache };
      };
      return createTreeSnapshot({ repository, commit, uri: (path) => gitPathUri(repository, commit, path), loader: createGitObjectLoader(objects, commit), ...(signal ? { signal } : {}) });
    },
  };
}
