/**
 * @module tasks/github-app-configured
 * Whether this deployment has a GitHub App to act as: an issuer (the Client ID, or the App ID) and
 * a private key. Apart from tasks/github-app, which builds the App's auth, so that what only asks
 * (admission, the triggers' configuration check) loads no key handling.
 */
import type { Config } from '../env.ts';

export function hasGitHubApp(config: Pick<Config, 'GITHUB_APP_CLIENT_ID' | 'GITHUB_APP_ID' | 'GITHUB_APP_PRIVATE_KEY'>): boolean {
  return (config.GITHUB_APP_CLIENT_ID ?? config.GITHUB_APP_ID) !== undefined && config.GITHUB_APP_PRIVATE_KEY !== undefined;
}
