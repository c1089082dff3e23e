/**
 * @module sources/github/source
 * The GitHub API RepositorySource: resolve a ref to a commit once, then serve commit-pinned
 * snapshots whose tree and blobs come from the git-data API.
 *
 * Round trips for a cold assembly: resolve (skipped for a 40-hex ref) -> one recursive tree
 * shared by every list() -> blobs read in parallel. An app installation token costs one more
 * request when neither the isolate nor the token store (KV) holds one.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { isValidRefName } from '../git/ref-name.ts';
import { COMMIT_SHA } from '../snapshot.ts';
import type { CommitSha, RepositorySource, ResolveResult } from '../snapshot.ts';
import { PermanentSourceError } from '../permanent.ts';
import { createTreeSnapshot } from '../tree-snapshot.ts';
import { SkippedRead, type TreeLoader } from '../tree-loader.ts';
import type { GitHubAuth } from './auth.ts';
import { createGitHubClient, GITHUB_API_URL } from './client.ts';
import { describeFailure, httpFailure, isPermanentFailure, rethrowIfAborted } from './errors.ts';
import { isEmptyPlan, type ReadPlan } from '../read-plan.ts';
import { readAhead, type RateLimitReport, type ReadAhead, type ReadAheadResult } from './graphql-read-ahead.ts';
import { createGitHubLoader } from './loader.ts';
import type { UsageMeter } from './usage-meter.ts';
import { blobUrl, githubLocation } from './location.ts';
import { parseFullName } from './repo-name.ts';
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
  /**
   * `graphql` (default): a plan is read ahead in one GraphQL query (with the ref's resolution
   * when there is one), REST serving only what it could not. `rest`: the git-data API only.
   */
  reads?: 'graphql' | 'rest';
  /** Counts this source's requests and GraphQL points, and keeps the rate-limit budget GitHub reports. */
  meter?: UsageMeter;
  /** Below this many REST requests left (as GitHub last reported), optional reads are skipped, not spent. */
  rateLimitFloor?: number;
}

/** API base URLs whose GraphQL schema refused the read-ahead (an older GitHub Enterprise Server), until when. */
const schemaRefusals = new Map<string, number>();
const SCHEMA_REFUSAL_MS = 60 * 60_000;

/** With this media type GitHub answers `commits/{ref}` with the bare SHA instead of a full diff. */
const SHA_MEDIA_TYPE = 'application/vnd.github.sha';

const ShaResponse = lazySchema(() => z.string().trim().regex(COMMIT_SHA));
const ByteStream = z.custom<ReadableStream<Uint8Array>>((value) => value instanceof ReadableStream, 'expected a response body stream');

/**
 * @example
 * const source = createGitHubSource({ owner: 'acme', repo: 'widgets', auth: tokenAuth(token), fetch });
 * const resolved = await source.resolve('main', { signal });
 * if (resolved.status === 'ok') await source.snapshot(resolved.commit).read('AGENTS.md', { maxBytes: 65_536 });
 */
export function createGitHubSource(options: GitHubSourceOptions): RepositorySource {
  const { owner, repo } = options;
  // Callers validate at their edge; this guards the API paths the source builds from the names.
  const name = parseFullName(`${owner}/${repo}`);
  if (!name.ok) throw new TypeError(`not a GitHub repository: ${name.reason}`);
  const { meter } = options;
  // Calling the global fetch detached from globalThis throws "Illegal invocation" in workerd.
  const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const octokit = createGitHubClient({
    auth: options.auth,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    fetch: meter ? meter.wrap(fetch) : fetch,
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  const { repository, htmlUrl } = githubLocation(options.baseUrl ?? GITHUB_API_URL, owner, repo);
  const apiUrl = options.baseUrl ?? GITHUB_API_URL;
  const graphql = (options.reads ?? 'graphql') === 'graphql' && (schemaRefusals.get(apiUrl) ?? 0) < Date.now();
  /** Read-aheads done while resolving, by commit, for the snapshot that follows. */
  const resolved = new Map<string, { plan: string; ahead: ReadAhead }>();
  /** Set once a read-ahead failed: this task reads over REST from then on, paying for no second failure. */
  let refused: Extract<ReadAheadResult, { status: 'failed' }> | undefined;
  const ahead = async (rev: string, plan: ReadPlan, signal?: AbortSignal): Promise<ReadAheadResult> => {
    if (refused) return refused;
    const read = await readAhead(octokit, { owner, repo, rev, plan, ...(signal ? { signal } : {}), ...(meter ? { onRateLimit: (report: RateLimitReport) => meter.graphqlCost(report) } : {}) });
    if (read.status === 'failed') {
      refused = read;
      if (read.schema) schemaRefusals.set(apiUrl, Date.now() + SCHEMA_REFUSAL_MS);
      if (!read.credentials) console.warn(`GraphQL read-ahead of ${owner}/${repo}@${rev} fell back to REST: ${read.reason}`);
    }
    return read;
  };

  return {
    repository,

    async resolve(ref, { signal, plan } = {}): Promise<ResolveResult> {
      if (COMMIT_SHA.test(ref)) return { status: 'ok', commit: ref };
      // Only ref names, never a rev-parse expression (`main~2`, `v1:dir`) or a path-like name.
      if (!isValidRefName(ref)) return { status: 'failed', ref, reason: `invalid ref name: ${JSON.stringify(ref)}`, permanent: true };
      if (graphql && plan && !isEmptyPlan(plan)) {
        const read = await ahead(ref, plan, signal);
        if (read.status === 'ok') {
          resolved.set(read.commit, { plan: JSON.stringify(plan), ahead: read });
          return { status: 'ok', commit: read.commit };
        }
        if (read.status === 'missing') return { status: 'missing', ref };
        if (read.credentials) return { status: 'failed', ref, reason: read.reason, permanent: true };
      }
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

    snapshot(commit, { plan, signal } = {}) {
      const rest = createGitHubLoader(octokit, { owner, repo, commit });
      const blobs = new Map<string, Uint8Array>();
      const loader: TreeLoader = {
        heldBlob: (oid) => blobs.get(oid),
        loadTree: (signal) => rest.loadTree(signal),
        loadCommit: (signal) => rest.loadCommit(signal),
        loadBlob: (oid, signal, blobOptions) => {
          const known = blobs.get(oid);
          if (known) return Promise.resolve(known);
          const core = meter?.read().remaining.core;
          if (blobOptions?.optional && core && options.rateLimitFloor !== undefined && core.remaining < options.rateLimitFloor) {
            return Promise.reject(new SkippedRead(`skipped to keep GitHub API budget: ${core.remaining} REST requests left, below the floor of ${options.rateLimitFloor} (resets ${core.resetAt})`));
          }
          return rest.loadBlob(oid, signal);
        },
        ...(graphql
          ? {
              async loadPartial(wanted: ReadPlan, signal?: AbortSignal) {
                const stashed = resolved.get(commit);
                let read: ReadAhead;
                if (stashed?.plan === JSON.stringify(wanted)) read = stashed.ahead;
                else {
                  const fetched = await ahead(commit, wanted, signal);
                  if (fetched.status === 'failed' && fetched.credentials) throw new PermanentSourceError(fetched.reason);
                  if (fetched.status !== 'ok') throw new Error(fetched.status === 'missing' ? `commit ${commit} not found` : fetched.reason);
                  read = fetched;
                }
                for (const [oid, bytes] of read.blobs) blobs.set(oid, bytes);
                return read.tree;
              },
            }
          : {}),
      };
      return createTreeSnapshot({
        repository,
        commit,
        uri: (path) => blobUrl(htmlUrl, commit, path),
        loader: options.wrapLoader ? options.wrapLoader(loader, { repository, commit }) : loader,
        ...(plan ? { plan } : {}),
        ...(signal ? { signal } : {}),
      });
    },
  };
}
