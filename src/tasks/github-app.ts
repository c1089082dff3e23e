/**
 * @module tasks/github-app
 * The deployment's GitHub App as configured, and the auth that acts as one of its
 * installations. Tasks, pull-request lookups and check runs all act through here, so they share
 * one token cache: the isolate's memory, then the token store (the `TENANTS` KV namespace).
 */
import type { Config } from '../env.ts';
import { appInstallationAuth } from '../sources/github/auth.ts';
import type { GitHubAuth } from '../sources/github/auth.ts';
import type { KeyValueStore } from '../sources/key-value-store.ts';

export interface InstallationAuth {
  auth: GitHubAuth;
  /** The access scope of this installation's reads, for caches keyed by what it read. */
  scope: string;
}

/** The App is configured when it has an issuer (Client ID or App ID) and a private key. */
export { hasGitHubApp } from './github-app-configured.ts';

/**
 * @example
 * const app = installationAuthFor(getConfig(env), 4242, env.TENANTS);
 * if (app) createGitHubSource({ owner, repo, auth: app.auth, baseUrl: config.GITHUB_API_URL });
 */
export function installationAuthFor(config: Config, installationId: number, tokenStore?: KeyValueStore): InstallationAuth | undefined {
  const issuer = config.GITHUB_APP_CLIENT_ID ?? config.GITHUB_APP_ID;
  const privateKey = config.GITHUB_APP_PRIVATE_KEY;
  if (issuer === undefined || privateKey === undefined) return undefined;
  return {
    auth: appInstallationAuth({ issuer, privateKey, installationId, ...(tokenStore ? { tokenStore } : {}) }),
    scope: `github-installation:${config.GITHUB_API_URL} ${issuer} ${installationId}`,
  };
}
