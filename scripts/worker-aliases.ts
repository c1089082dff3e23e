/**
 * @module scripts/worker-aliases
 * Packages the Worker build (scripts/worker-build) replaces with a stand-in, by exact import name;
 * the Workers tests resolve the same table (vitest.config.ts), so they run the module graph the
 * upload carries. Each stand-in says why it exists and fails loudly if it is ever called:
 * - pako's inflate half only (isomorphic-git deflates with workerd's CompressionStream);
 * - no ES5 polyfill for the typed-array check sha.js never makes there;
 * - no .gitignore or merge helpers for a Worker without a working tree (it fetches and reads objects);
 * - a per-key lock of a few lines for async-lock, of which isomorphic-git calls `acquire` alone;
 * - no pify: isomorphic-git promisifies only a callback-style fs client, and the Worker's is promise-based;
 * - no OAuth strategies for an App that only authenticates as an installation;
 * - no default token cache beside ours (auth-app builds one for every client, and is always given ours);
 * - GitHub's JSON parsed natively: no field Groundwork reads holds an integer past 2^53.
 * Paths are relative to the repository root.
 */
export const WORKER_ALIASES: Readonly<Record<string, string>> = {
  pako: './src/sources/git/shims/pako-inflate.cjs',
  'typed-array-buffer': './src/sources/git/shims/typed-array-buffer.cjs',
  ignore: './src/sources/git/shims/ignore.cjs',
  diff3: './src/sources/git/shims/diff3.cjs',
  'async-lock': './src/sources/git/shims/async-lock.mjs',
  pify: './src/sources/git/shims/pify.cjs',
  '@octokit/auth-oauth-app': './src/sources/github/shims/auth-oauth-app.mjs',
  '@octokit/auth-oauth-user': './src/sources/github/shims/auth-oauth-user.mjs',
  'toad-cache': './src/sources/github/shims/toad-cache.mjs',
  'json-with-bigint': './src/sources/github/shims/json-with-bigint.mjs',
};
