/**
 * @module sources/git/remote-fetch
 * Fetches exactly one commit from a smart-HTTP remote into memory: depth 1, no checkout, no
 * tags, want-by-sha. Asking for the sha rather than a branch is what keeps a snapshot pinned
 * when the branch moves between resolve and read.
 */
import { createCappedHttpClient, createTransferBudget, type FetchLike } from './http-client.ts';
import { createMemoryFs } from './memory-fs.ts';
import type { GitObjectStore } from './object-loader.ts';
import { gitErrorCode } from './errors.ts';
import { isomorphicGit } from './isomorphic-git.ts';
import { PermanentSourceError } from '../permanent.ts';

export interface FetchCommitOptions {
  url: string;
  headers: Record<string, string>;
  commit: string;
  fetch: FetchLike;
  maxBytes: number;
  signal?: AbortSignal;
}

const GITDIR = '/repository.git';

/** Throws on any failure; `budget` is passed in so the caller can tell a cap overrun apart. */
export async function fetchCommit(options: FetchCommitOptions, budget = createTransferBudget(options.maxBytes)): Promise<GitObjectStore> {
  const { addRemote, fetch: gitFetch, init, readCommit } = await isomorphicGit();
  const fs = createMemoryFs();
  const store: GitObjectStore = { fs, gitdir: GITDIR, cache: {} };
  await init({ fs, gitdir: GITDIR, bare: true });
  // isomorphic-git's fetch insists on a configured remote to map refs through.
  await addRemote({ fs, gitdir: GITDIR, remote: 'origin', url: options.url });
  await gitFetch({
    ...store,
    http: createCappedHttpClient(options.fetch, budget, options.signal),
    url: options.url,
    headers: { ...options.headers },
    remote: 'origin',
    ref: options.commit,
    singleBranch: true,
    depth: 1,
    tags: false,
  });
  // upload-pack answers a sha it will not serve with an ERR line that isomorphic-git treats as
  // an empty pack, so presence of the commit is checked here rather than assumed.
  try {
    await readCommit({ ...store, oid: options.commit });
  } catch (error) {
    if (gitErrorCode(error) !== 'NotFoundError') throw error;
    throw new PermanentSourceError(`the server sent no commit ${options.commit}: it does not exist there, or no branch or tag reaches it`);
  }
  return store;
}
