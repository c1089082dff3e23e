/**
 * @module scripts/worker-aliases
 * Packages the Worker build (scripts/worker-build) replaces with a stand-in, by exact import name;
 * the Workers tests resolve the same table (vitest.config.ts), so they run the module graph the
 * upload carries. Each stand-in says why it exists and fails loudly if it is ever called:
 * - no OAuth strategies for an App that only authenticates as an installation;
 * - no default token cache beside ours (auth-app builds one for every client, and is always given ours);
 * - GitHub's JSON parsed natively: no field Groundwork reads holds an integer past 2^53.
 * Paths are relative to the repository root.
 */
export const WORKER_ALIASES: Readonly<Record<string, string>> = {
  '@octokit/auth-oauth-app': './src/sources/github/shims/auth-oauth-app.mjs',
  '@octokit/auth-oauth-user': './src/sources/github/shims/auth-oauth-user.mjs',
  'toad-cache': './src/sources/github/shims/toad-cache.mjs',
  'json-with-bigint': './src/sources/github/shims/json-with-bigint.mjs',
};
