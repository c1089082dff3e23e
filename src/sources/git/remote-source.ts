/**
 * @module sources/git/remote-source
 * Any smart-HTTP git remote, read inside the Worker. `resolve` asks the server (ls-refs); a
 * snapshot fetches its one commit shallowly into memory on first use and reads from there.
 *
 * Identity is the URL without credentials (see {@link parseRemoteUrl}); entry URIs follow
 * {@link gitPathUri}. Each snapshot fetches its own pack on first use: reuse a snapshot for a
 * task, and pass `cache` so that later tasks on the same commit fetch nothing.
 *
 * @example
 * const source = createRemoteGitSource('https://git.example.com/app.git', { maxFetchBytes: 8 << 20 });
 * const main = await source.resolve('main');
 */
import { untilAborted } from '../../lib/abortable.ts';
import { createCachedLoader, type CachedLoaderOptions } from '../cached-loader.ts';
import type { KeyValueStore } from '../key-value-store.ts';
import { PermanentSourceError } from '../permanent.ts';
import { COMMIT_SHA, type RepositorySource, type ResolveResult } from '../snapshot.ts';
import type { TreeLoader } from '../tree-loader.ts';
import { createTreeSnapshot } from '../tree-snapshot.ts';
import { budgetExceeded, createCappedHttpClient, createTransferBudget, GitHttpError, type FetchLike } from './http-client.ts';
import { createGitObjectLoader, type GitObjectStore } from './object-loader.ts';
import { fetchCommit } from './remote-fetch.ts';
import { lookupRemoteRef } from './remote-refs.ts';
import { followRedirects } from './redirects.ts';
import { parseRemoteUrl, type BasicAuth } from './remote-url.ts';
import { errorMessage } from './errors.ts';
import { isValidRefName } from './ref-name.ts';
import { gitPathUri } from './uri.ts';

/**
 * The answer's body and the pack taken out of it are both held while the pack is indexed, then
 * the pack alone (pack-index.ts), and a Worker has 128 MB, so the default stays well below that.
 */
export const DEFAULT_MAX_FETCH_BYTES = 16 * 1024 * 1024;

export interface RemoteGitSourceOptions {
  /** Transport; defaults to the global `fetch`. */
  fetch?: FetchLike;
  /** Cap on bytes received per resolve or per snapshot fetch. */
  maxFetchBytes?: number;
  /** The setting a host exposes for the cap, named in the failure so an operator knows what to raise. */
  capSetting?: string;
  /** Why a request (or a redirect) to `url` must not be made, e.g. a host outside an allowlist. */
  refuse?: (url: URL) => string | undefined;
  /** Overrides credentials embedded in the URL. */
  auth?: BasicAuth;
  /**
   * The repository's identity when the URL is only how it is reached (a local repository served
   * on a loopback port that changes between runs): it labels entries and keys the cache.
   */
  identity?: string;
  /** When set, trees and blobs are cached by commit and oid, so a warm snapshot fetches nothing. */
  cache?: { store: KeyValueStore; options?: CachedLoaderOptions };
  /**
   * Every failure to fetch is permanent: the remote is this machine's own server over a repository
   * on disk (`groundwork run`), so what failed once (objects missing from it) fails again, and
   * retrying only delays the answer.
   */
  failuresArePermanent?: boolean;
}

export function createRemoteGitSource(url: string, options: RemoteGitSourceOptions = {}): RepositorySource {
  const parsed = parseRemoteUrl(url, options.auth);
  const maxBytes = options.maxFetchBytes ?? DEFAULT_MAX_FETCH_BYTES;
  // Redirects are followed by hand on every transport, so credentials never leave their origin.
  const transport: FetchLike = followRedirects(
    options.fetch ?? ((input, init) => fetch(input, init)),
    options.refuse ? { refuse: options.refuse } : {},
  );
  const repository = options.identity ?? (parsed.ok ? parsed.identity : 'invalid-remote-url');
  const capReason = (what: string): string =>
    `${what} exceeded the size cap of ${maxBytes} bytes (${options.capSetting ?? 'maxFetchBytes'}); raise it to read this repository`;

  /** `lifetime` bounds the one fetch every read of the snapshot shares; each read waits under its own signal. */
  const createLoader = (commit: string, lifetime: AbortSignal | undefined): TreeLoader => {
    let fetched: Promise<GitObjectStore> | undefined;
    const objects = (signal?: AbortSignal): Promise<GitObjectStore> => {
      if (!parsed.ok) return Promise.reject(new PermanentSourceError(parsed.reason));
      if (!fetched) {
        const budget = createTransferBudget(maxBytes);
        const request = { url: parsed.identity, headers: parsed.headers, commit, fetch: transport, maxBytes, ...(lifetime ? { signal: lifetime } : {}) };
        fetched = fetchCommit(request, budget).catch((error: unknown) => {
          if (budgetExceeded(budget)) throw new PermanentSourceError(capReason(`fetching ${repository} at ${commit}`));
          const reason = `fetching ${repository} at ${commit} failed: ${errorMessage(error)}`;
          if (isPermanent(error) || options.failuresArePermanent) throw new PermanentSourceError(reason);
          // Other failures may be transient: forget them so the next read retries.
          fetched = undefined;
          throw new Error(reason);
        });
      }
      // The fetch itself ends when `lifetime` fires, with a reason that names it; others wait under their own signal.
      return signal === lifetime ? fetched : untilAborted(fetched, signal);
    };
    return createGitObjectLoader(objects, commit);
  };

  return {
    repository,

    async resolve(ref, { signal } = {}): Promise<ResolveResult> {
      signal?.throwIfAborted();
      if (!parsed.ok) return { status: 'failed', ref, reason: parsed.reason };
      if (COMMIT_SHA.test(ref.toLowerCase())) return { status: 'ok', commit: ref.toLowerCase() };
      if (!isValidRefName(ref)) return { status: 'failed', ref, reason: `invalid ref name: ${JSON.stringify(ref)}` };
      const budget = createTransferBudget(maxBytes);
      try {
        const http = createCappedHttpClient(transport, budget, signal);
        const oid = await lookupRemoteRef(http, parsed.identity, parsed.headers, ref);
        return oid === undefined ? { status: 'missing', ref } : { status: 'ok', commit: oid };
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (budgetExceeded(budget)) return { status: 'failed', ref, reason: capReason(`listing refs of ${repository}`), permanent: true };
        const reason = `listing refs of ${repository} failed: ${errorMessage(error)}`;
        return { status: 'failed', ref, reason, ...(isPermanent(error) ? { permanent: true } : {}) };
      }
    },

    snapshot(commit, { signal } = {}) {
      const { cache } = options;
      const own = createLoader(commit, signal);
      const loader = cache ? createCachedLoader(own, cache.store, { repository, commit }, cache.options) : own;
      return createTreeSnapshot({ repository, commit, uri: (path) => gitPathUri(repository, commit, path), loader, ...(signal ? { signal } : {}) });
    },
  };
}

/** A 401, 403 or 404 will not change on retry, nor will a server's refusal or an answer that is not git. */
function isPermanent(error: unknown): boolean {
  return error instanceof PermanentSourceError || (error instanceof GitHttpError && error.permanent);
}
