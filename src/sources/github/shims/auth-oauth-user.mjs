// @octokit/auth-oauth-user for the Worker bundle only (wrangler.toml [alias]); see
// auth-oauth-app.mjs beside it. @octokit/auth-app imports two things from it: `requiresBasicAuth`,
// which its request hook asks of every URL (the same test as the package's own, so an
// installation request is routed exactly as before), and `createOAuthUserAuth`, which it only
// re-exports for user-to-server tokens Groundwork never requests.
const ROUTES_REQUIRING_BASIC_AUTH = /\/applications\/[^/]+\/(token|grant)s?/;

export function requiresBasicAuth(url) {
  return url && ROUTES_REQUIRING_BASIC_AUTH.test(url);
}

export function createOAuthUserAuth() {
  throw new Error('OAuth user authentication is not part of the Worker bundle: Groundwork authenticates as an App installation (src/sources/github/shims/auth-oauth-user.mjs)');
}
