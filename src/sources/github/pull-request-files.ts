/**
 * @module sources/github/pull-request-files
 * The `github:api` capability over the REST API: `GET /repos/{o}/{r}/pulls/{n}/files`, one page
 * of up to 100 files per request, and only as many pages as the caller's limit needs; the pull
 * request as it is now (see pull-request-state); and, for the read-back before an action, the
 * checks, statuses and reviews GitHub has (see commit-checks), all through the same client.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import type { CommitChecksApi } from '../commit-checks.ts';
import type { GitHubApi, PullRequestFile, PullRequestFilesResult } from '../pull-requests.ts';
import { createGitHubClient } from './client.ts';
import { createCommitChecks } from './commit-checks.ts';
import { describeFailure, rethrowIfAborted } from './errors.ts';
import { PermanentSourceError } from '../permanent.ts';
import { readPullRequest } from './pull-request-state.ts';
import type { Fetch } from './retry.ts';
import type { GitHubSourceOptions } from './source.ts';

/** The source's connection to one repository (owner, name, credential, host, retries, meter). */
export type GitHubApiOptions = Pick<GitHubSourceOptions, 'owner' | 'repo' | 'auth' | 'baseUrl' | 'fetch' | 'retry' | 'meter'>;

/** GitHub's largest page for this endpoint. */
const MAX_PER_PAGE = 100;

const FilesResponse = lazySchema(() => z.array(
  z.object({
    filename: z.string().min(1),
    status: z.string().min(1).max(32),
    additions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
    previous_filename: z.string().optional(),
  }),
));

/**
 * Builds the listing's check and reads one file with it now rather than at the first answer: a
 * first turn calls it while it waits on GitHub (the wiring's `prepare`), so a cold isolate's
 * listing is not checked by code run for the first time between the files' answer and the
 * read-ahead that waits on it (issue 56: 1.6 ms of V8's profile there, at 13:00 on 2026-12-07).
 */
export function buildFilesChecks(): void {
  FilesResponse.parse([{ filename: 'a', status: 'modified', additions: 1, deletions: 1 }]);
}

/**
 * @example
 * const github = createGitHubApi({ owner: 'acme', repo: 'widgets', auth: tokenAuth(token) });
 * await github.pullRequestFiles(7, { limit: 100, signal }); // one request
 */
export function createGitHubApi(options: GitHubApiOptions): GitHubApi & CommitChecksApi {
  const { owner, repo, meter } = options;
  // Calling the global fetch detached from globalThis throws "Illegal invocation" in workerd.
  const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const octokit = createGitHubClient({
    auth: options.auth,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    fetch: meter ? meter.wrap(fetch) : fetch,
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });

  return {
    repository: `${owner}/${repo}`,
    ...createCommitChecks(octokit, { owner, repo }),

    pullRequest: (number, { signal } = {}) => readPullRequest(octokit, { owner, repo, number }, signal),

    async pullRequestFiles(number, { limit, signal }): Promise<PullRequestFilesResult> {
      const perPage = Math.max(1, Math.min(MAX_PER_PAGE, limit));
      const files: PullRequestFile[] = [];
      try {
        for (let page = 1; files.length < limit; page++) {
          const response = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
            owner,
            repo,
            pull_number: number,
            per_page: perPage,
            page,
            request: signal ? { signal } : {},
          });
          const listed = FilesResponse.parse(response.data);
          for (const file of listed) {
            files.push({
              path: file.filename,
              status: file.status,
              additions: file.additions,
              deletions: file.deletions,
              ...(file.previous_filename === undefined ? {} : { previousPath: file.previous_filename }),
            });
          }
          const more = listed.length === perPage && /\brel="next"/.test(String(response.headers.link ?? ''));
          if (!more) return { status: 'ok', files: files.slice(0, limit), complete: files.length <= limit };
        }
        return { status: 'ok', files: files.slice(0, limit), complete: false };
      } catch (error) {
        rethrowIfAborted(signal);
        const subject = `the files of pull request #${number} of ${owner}/${repo}`;
        // The client's token step throws PermanentSourceError only for credentials that cannot work.
        if (error instanceof PermanentSourceError) return { status: 'failed', reason: `${subject}: ${error.message}`, credentials: true };
        return { status: 'failed', reason: describeFailure(error, subject) };
      }
    },
  };
}
