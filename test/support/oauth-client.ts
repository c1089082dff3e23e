/**
 * @module test/support/oauth-client
 * test/support/oauth-flow against the Worker in workerd, at the origin that offers OAuth
 * (test/support/oauth-browser): the MCP SDK client's sign-in of a person, and its browser step.
 */
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { githubWebRoot, OAUTH_ORIGIN, route } from './oauth-browser.ts';
import { authorizeWith, MemoryOAuthClient, signInWith, type FlowSite } from './oauth-flow.ts';

export { CLIENT_REDIRECT, MemoryOAuthClient } from './oauth-flow.ts';

const site = (): FlowSite => ({ send: route, origin: OAUTH_ORIGIN, githubWebRoot: githubWebRoot() });

export function authorizeInBrowser(authorizationUrl: URL, login: string): Promise<string> {
  return authorizeWith(site(), authorizationUrl, login);
}

export function signIn(login: string, serverUrl = `${OAUTH_ORIGIN}/mcp`, client = new MemoryOAuthClient()): Promise<{ client: MemoryOAuthClient; tokens: OAuthTokens }> {
  return signInWith(site(), login, serverUrl, client);
}
