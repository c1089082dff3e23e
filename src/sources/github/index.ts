/**
 * @module sources/github
 * The GitHub API source and its auth options; import from here rather than from the parts.
 */
export { createAppAuth, tokenAuth } from './auth.ts';
export type { AppAuthOptions, GitHubAuth } from './auth.ts';
export { PKCS1_KEY_ERROR } from './app-jwt.ts';
export { createGitHubSource } from './source.ts';
export type { GitHubSourceOptions } from './source.ts';
export type { RetryPolicy } from './retry.ts';
