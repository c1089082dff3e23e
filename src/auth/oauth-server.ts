/**
 * @module auth/oauth-server
 * The authorization Worker's (src/auth-worker.ts) OAuth 2.1 authorization server for two protected
 * resources, with
 * @cloudflare/workers-oauth-provider 1.2.3 (its README and docs/, read in node_modules): the MCP
 * server (`<origin>/mcp`) and the REST API (`<origin>`, covering `/tasks` and `/knowledge`), one
 * issuer (`<origin>`). The provider serves RFC 8414 metadata, RFC 9728 metadata for each resource,
 * the token endpoint (`/oauth/token`: codes with PKCE S256 only, rotating refresh tokens, RFC 7009
 * revocation), RFC 7591 registration (`/oauth/register`), audience-bound tokens (RFC 8707: a token
 * for one resource is refused at the other) and the 401 challenge naming the metadata. What a
 * person may do is decided per repository by GitHub (auth/repository-access), so tokens carry no
 * scopes.
 *
 * The person's GitHub user access token rides in the grant's `props` (encrypted by the provider,
 * which only the token holder's key unwraps). GitHub's expires after 8 hours, ours after one: each
 * refresh of ours renews GitHub's first when it would lapse before the new token does, and a
 * refresh GitHub refuses (the person revoked the App) ends the grant (`invalid_grant`), so the
 * client signs in again instead of holding a token that can do nothing (docs/upstream-sign-in.md).
 *
 * Client ID Metadata Documents are off: the provider needs the `global_fetch_strictly_public`
 * compatibility flag for them, which changes every outbound fetch of the Worker. Clients register
 * dynamically (Claude Code, VS Code, Cursor, the MCP Inspector do).
 *
 * Only the authorization Worker carries it: the main Worker's resources (auth/resource-server) ask
 * this server's `validateToken` over the AUTH_SERVER Service Binding.
 */
import { OAuthAuthorizationServer, OAuthError, type OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { getAuthSettings } from './auth-settings.ts';
import { refreshGitHubToken } from './github-user.ts';
import { personOfProps, type GrantProps } from './identity.ts';
import { apiResource, mcpResource } from './oauth-origin.ts';

/** Seconds one access token of ours lives. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Renew GitHub's token when it has less than this left beyond our new token's life. */
const GITHUB_RENEW_MARGIN_MS = 5 * 60_000;

const servers = new Map<string, OAuthAuthorizationServer<Env>>();

/** The authorization server of `origin`, built once per isolate and origin. */
export function authorizationServer(origin: string): OAuthAuthorizationServer<Env> {
  let server = servers.get(origin);
  if (!server) {
    server = new OAuthAuthorizationServer<Env>({
      issuer: origin,
      resources: [mcpResource(origin), apiResource(origin)],
      authorizeEndpoint: '/authorize',
      tokenEndpoint: '/oauth/token',
      clientRegistrationEndpoint: '/oauth/register',
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      tokenExchangeCallback: renewGitHubToken,
      onError: ({ status, code, description, internal }) => {
        console.warn(`OAuth ${status} ${code}: ${description ?? ''} (${internal.category}/${internal.reason})`);
      },
    });
    servers.set(origin, server);
  }
  return server;
}

export function oauthHelpers(origin: string, env: Env): OAuthHelpers {
  return authorizationServer(origin).getOAuthApi(env);
}

async function renewGitHubToken(options: { grantType: string; props: unknown; env: Env }) {
  const person = personOfProps(options.props);
  if (!person) throw new OAuthError('invalid_grant', { description: 'this grant holds no GitHub sign-in; sign in again' });
  const now = Date.now();
  const lifeMs = (expiresAt: number | undefined) => (expiresAt === undefined ? Number.POSITIVE_INFINITY : expiresAt - now);
  let github = person.github;
  if (options.grantType === 'refresh_token' && lifeMs(github.expiresAt) < ACCESS_TOKEN_TTL_SECONDS * 1000 + GITHUB_RENEW_MARGIN_MS) {
    if (github.refreshToken === undefined) throw new OAuthError('invalid_grant', { description: 'the GitHub sign-in expired; sign in again' });
    const config = getAuthSettings(options.env);
    const renewed = await refreshGitHubToken(
      { clientId: config.GITHUB_APP_CLIENT_ID ?? '', clientSecret: config.GITHUB_APP_CLIENT_SECRET ?? '', apiUrl: config.GITHUB_API_URL, fetch: (input, init) => fetch(input, init), now: () => Date.now() },
      github.refreshToken,
    );
    if (!renewed.ok && renewed.kind === 'refused') throw new OAuthError('invalid_grant', { description: `GitHub no longer accepts this sign-in: ${renewed.reason}; sign in again` });
    if (!renewed.ok) throw new OAuthError('temporarily_unavailable', { description: `GitHub could not renew the sign-in: ${renewed.reason}`, statusCode: 503 });
    github = renewed.value;
  }
  // Our token never outlives GitHub's: a request it carries can always be asked of GitHub.
  const ttl = Math.min(ACCESS_TOKEN_TTL_SECONDS, Math.floor(lifeMs(github.expiresAt) / 1000));
  if (ttl < 60) throw new OAuthError('invalid_grant', { description: 'the GitHub sign-in is about to expire and cannot be renewed; sign in again' });
  if (github === person.github) return { accessTokenTTL: ttl };
  return { newProps: { person: { ...person, github } } satisfies GrantProps, accessTokenTTL: ttl };
}
