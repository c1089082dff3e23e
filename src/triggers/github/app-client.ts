/**
 * @module triggers/github/app-client
 * The GitHub App installation client that webhook handling and check-run notifications share,
 * built on the sources' Octokit client and the App auth of tasks/github-app, so an installation
 * token minted for a task also serves the pull-request lookup and the check run (and back).
 */
import type { Octokit } from '@octokit/core';
import type { Config } from '../../env.ts';
import { createGitHubClient } from '../../sources/github/client.ts';
import type { Fetch, RetryPolicy } from '../../sources/github/retry.ts';
import type { KeyValueStore } from '../../sources/key-value-store.ts';
import { installationAuthFor } from '../../tasks/github-app.ts';

export interface InstallationClientOptions {
  fetch?: Fetch;
  retry?: Partial<RetryPolicy>;
  /** Where installation tokens are shared across isolates (the `TENANTS` namespace). */
  tokens?: KeyValueStore;
}

/**
 * An Octokit acting as the installation, or undefined when no App is configured.
 *
 * @example
 * const octokit = installationClient(getConfig(env), 4242, { fetch, tokens: env.TENANTS });
 * await octokit?.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner, repo, pull_number: 7 });
 */
export function installationClient(config: Config, installationId: number, options: InstallationClientOptions = {}): Octokit | undefined {
  const app = installationAuthFor(config, installationId, options.tokens);
  if (!app) return undefined;
  return createGitHubClient({
    auth: app.auth,
    baseUrl: config.GITHUB_API_URL,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
}
