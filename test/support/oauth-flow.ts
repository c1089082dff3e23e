/**
 * @module test/support/oauth-flow
 * The official MCP SDK client's OAuth support (`@modelcontextprotocol/sdk/client/auth.js`, its
 * `OAuthClientProvider` and `auth()`), with what an MCP client keeps in memory: its registration,
 * tokens, PKCE verifier and discovery. `signInWith` runs the whole flow for a person as an MCP
 * client does: discovery from the resource's metadata, dynamic registration, PKCE, the browser
 * step (consent, GitHub, back: test/support/cookie-browser), and the code exchange. Runtime-free:
 * workerd's tests (test/support/oauth-client) and the Node browser test use it alike.
 */
import { auth, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { cookieBrowser, formField, type Send } from './cookie-browser.ts';

/** Where the client would listen for the browser coming back; the test's browser stops there. */
export const CLIENT_REDIRECT = 'http://127.0.0.1:43117/callback';

export class MemoryOAuthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  discovery: OAuthDiscoveryState | undefined;
  /** Where the SDK sent the person to authorize, last. */
  authorizationUrl: URL | undefined;

  readonly name: string;

  constructor(name = 'groundwork-test client') {
    this.name = name;
  }

  get redirectUrl(): string {
    return CLIENT_REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [CLIENT_REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

export interface FlowSite {
  send: Send;
  /** The Worker's origin. */
  origin: string;
  /** The GitHub test server's web root (its sign-in page). */
  githubWebRoot: string;
}

/**
 * The browser step of an authorization the SDK started: the consent page, Continue with GitHub,
 * GitHub (signed in as `login`), back through the callback to the client's redirect URI; the code.
 */
export async function authorizeWith(site: FlowSite, authorizationUrl: URL, login: string): Promise<string> {
  const person = cookieBrowser(site.send, site.githubWebRoot, login);
  const consent = await person.open(authorizationUrl.toString());
  const html = await consent.response.text();
  if (consent.response.status !== 200) throw new Error(`the consent page answered ${consent.response.status}: ${html.slice(0, 300)}`);
  const back = await person.submit(`${site.origin}/authorize`, { handle: formField(html, 'handle'), decision: 'approve' }, { stopAt: CLIENT_REDIRECT });
  const code = new URL(back.url).searchParams.get('code');
  if (!back.url.startsWith(CLIENT_REDIRECT) || !code) throw new Error(`the browser ended at ${back.url} (${back.response.status}): ${(await back.response.text()).slice(0, 300)}`);
  return code;
}

/** A person signed in through `client` for the resource at `serverUrl` (`/mcp`, or a REST path such as `/tasks`); their tokens. */
export async function signInWith(site: FlowSite, login: string, serverUrl: string, client = new MemoryOAuthClient()): Promise<{ client: MemoryOAuthClient; tokens: OAuthTokens }> {
  const started = await auth(client, { serverUrl, fetchFn: site.send });
  if (started !== 'REDIRECT' || !client.authorizationUrl) throw new Error(`the SDK did not start an authorization (${started})`);
  const code = await authorizeWith(site, client.authorizationUrl, login);
  const finished = await auth(client, { serverUrl, authorizationCode: code, fetchFn: site.send });
  if (finished !== 'AUTHORIZED' || !client.saved) throw new Error(`the SDK did not finish the authorization (${finished})`);
  return { client, tokens: client.saved };
}
