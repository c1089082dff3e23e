/**
 * @module sources/github/source
 * The GitHub API RepositorySource: resolve a ref to a commit once, then serve commit-pinned
 * snapshots whose tree and blobs come from the git-data API.
 *
 * Round trips for a cold assembly: resolve (skipped for a 40-hex ref) -> one recursive tree
 * shared by every list() -> blobs read in parallel. An app installation token costs one more
 * request the first time and is cached afterwards.
 */
import { z } from 'zod';
import { COMMIT_SHA } from '../snapshot.ts';
import type { CommitSha, RepositorySource, ResolveResult } from '../snapshot.ts';
import { createTreeSnapshot } from '../tree-snapshot.ts';
import type { TreeLoader } from '../tree-snapshot.ts';
import type { GitHubAuth } from './auth.ts';
import { createGitHubClient, GITHUB_API_URL } from './client.ts';
import { describeFailure, httpFailure, isPermanentFailure, rethrowIfAborted } from './errors.ts';
import { createGitHubLoader } from './loader.ts';
import { blobUrl, githubLocation } from './location.ts';
import type { Fetch, RetryPolicy } from './retry.ts';

export interface GitHubSourceOptions {
  owner: string;
  repo: string;
  auth: GitHubAuth;
  /** API base URL; GitHub Enterprise Server is `https://<host>/api/v3`. */
  baseUrl?: string;
  fetch?: Fetch;
  retry?: Partial<RetryPolicy>;
  /** Wraps each snapshot's loader, e.g. with a revision-keyed cache. */
  wrapLoader?: (loader: TreeLoader, scope: { repository: string; commit: CommitSha }) => TreeLoader;
}

/** With this media type GitHub answers `commits/{ref}` with the bare SHA instead of a full diff. */
const SHA_MEDIA_TYPE = 'application/vnd.github.sha';

const ShaResponse = z.string().trim().regex(COMMIT_SHA);
const ByteStream = z.custom<ReadableStream<Uint8Array>>((value) => value instanceof ReadableStream, 'expected a response body stream');

/**
 * @example
 * const source = createGitHubSource({ owner: 'acme', repo: 'widgets', auth: tokenAuth(token), fetch });
 * const resolved = await source.resolve('main', { signal });
 * if (resolved.status === 'ok') await source.snapshot(resolved.commit).read('AGENTS.md', { maxBytes: 65_536 });
 */
export function createGitHubSource(options: GitHubSourceOptions): RepositorySource {
  const { owner, repo } = options;
  const octokit = createGitHubClient({
    auth: options.auth,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  const { repository, htmlUrl } = githubLocation(options.baseUrl ?? GITHUB_API_URL, owner, repo);

  return {
    repository,

    async resolve(ref, { signal } = {}): Promise<ResolveResult> {
      if (COMMIT_SHA.test(ref)) return { status: 'ok', commit: ref };
      try {
        const response = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
          owner,
          repo,
          ref,
          headers: { accept: SHA_MEDIA_TYPE },
          // The body is read here: workerd warns when a vendor media type is decoded with text().
          request: { parseSuccessResponseBody: false, ...(signal ? { signal } : {}) },
        });
        const body = ByteStream.parse(response.data);
        const sha = ShaResponse.safeParse(new TextDecoder().decode(await new Response(body).arrayBuffer()));
        if (!sha.success) return { status: 'failed', ref, reason: `GitHub did not answer ref '${ref}' with a commit SHA` };
        return { status: 'ok', commit: sha.data };
      } catch (error) {
        rethrowIfAborted(signal);
        // GitHub answers an unknown ref with 422 ("No commit found for SHA") and an unknown repo with 404.
        const status = httpFailure(error)?.status;
        if (status === 404 || status === 422) return { status: 'missing', ref };
        const reason = describeFailure(error, `ref '${ref}' of ${owner}/${repo}`);
        return { status: 'failed', ref, reason, ...(isPermanentFailure(error) ? { permanent: true } : {}) };
      }
    },

    snapshot(commit, { signal } = {}) {
      const loader = createGitHubLoader(octokit, { owner, repo, commit });
      return createTreeSnapshot({
        repository,
        commit,
        uri: (path) => blobUrl(htmlUrl, commit, path),
        loader: options.wrapLoader ? options.wrapLoader(loader, { repository, commit }) : loader,
        ...(signal ? { signal } : {}),
      });
    },
  };
}
