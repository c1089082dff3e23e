// @octokit/auth-oauth-app for the Worker bundle only (wrangler.toml [alias]). @octokit/auth-app
// builds an OAuth App strategy for every App client, for the client-secret routes
// (`/applications/{client_id}/token`) and `type: "oauth-app"`, neither of which Groundwork asks
// for: it authenticates as an installation only (src/sources/github/client.ts). The real package
// and what it pulls in (oauth-methods, the device flow) are about 11 KiB minified that could
// never run. If auth-app ever reached for OAuth, it fails loudly.
export function createOAuthAppAuth() {
  return async function oauthAppAuthIsNotBundled() {
    throw new Error('OAuth App authentication is not part of the Worker bundle: Groundwork authenticates as an App installation (src/sources/github/shims/auth-oauth-app.mjs)');
  };
}
