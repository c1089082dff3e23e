/**
 * @module triggers/github/app-client
 * The GitHub App installation client that webhook handling and check-run notifications share.
 * Built on the sources' app JWT, installation-token exchange and Octokit client; this module
 * only decides which installation to act as and keeps one token cache per installation.
 */
import type { Octokit } from '@octokit/rest';
import type { Config } from '../../env.ts';
import { createAppAuth } from '../../sources/github/auth.ts';
import type { GitHubAuth } from '../../sources/github/auth.ts';
import { createGitHubClient } from '../../sources/github/client.ts';
import type { Fetch, RetryPolicy } from '../../sources/github/retry.ts';

// Keyed by the parsed config (itself cached per Env), so a token survives across requests of
// one isolate and a test's fresh env never sees another test's token.
const auths = new WeakMap<Config, Map<number, GitHubAuth>>();

export interface InstallationClientOptions {
  fetch?: Fetch;
  retry?: Partial<RetryPolicy>;
}

/**
 * An Octokit acting as the installation, or undefined when no App is configured.
 *
 * @example
 * const octokit = installationClient(getConfig(env), 4242, { fetch });
 * await octokit?.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner, repo, pull_number: 7 });
 */
export function installationClient(config: Config, installationId: number, options: InstallationClientOptions = {}): Octokit | undefined {
  const { GITHUB_APP_ID: appId, GITHUB_APP_PRIVATE_KEY: privateKey } = config;
  if (appId === undefined || privateKey === undefined) return undefined;
  let perInstallation = auths.get(config);
  if (!perInstallation) auths.set(config, (perInstallation = new Map()));
  let auth = perInstallation.get(installationId);
  if (!auth) perInstallation.set(installationId, (auth = createAppAuth({ appId, privateKey, installationId })));
  return createGitHubClient({
    auth,
    baseUrl: config.GITHUB_API_URL,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
}
