/**
 * @module sources/github
 * The GitHub API source and its auth options; import from here rather than from the parts.
 */
export { appInstallationAuth, tokenAuth } from './auth.ts';
export type { AppInstallationAuthOptions, GitHubAuth } from './auth.ts';
export { normaliseAppKey } from './app-key.ts';
export { forgetInstallationTokens } from './token-cache.ts';
export { createGitHubSource } from './source.ts';
export type { GitHubSourceOptions } from './source.ts';
export type { RetryPolicy } from './retry.ts';
