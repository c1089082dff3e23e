/**
 * @module auth/oauth-origin
 * Where this deployment is an OAuth 2.1 authorization server and protected resource, and whether
 * a request is one it serves: the GitHub App's client id and secret are set
 * (`GITHUB_APP_CLIENT_ID`, `GITHUB_APP_CLIENT_SECRET`), and the request reaches PUBLIC_URL's origin
 * (without PUBLIC_URL, the origin it reaches). The origin must be https, or http on a loopback host
 * for `wrangler dev` (OAuth 2.1 §1.5; MCP authorization "Communication Security"; the provider
 * refuses any other). Elsewhere the API and `/mcp` take API tokens only, as before.
 *
 * Small and free of the provider: the Worker's entry asks it for every API request, and only
 * requests that need OAuth load the provider (auth/oauth-server).
 */
import type { Config } from '../env.ts';

/** The settings that decide it: the main Worker's Config, or the authorization Worker's own read of them (auth/auth-settings). */
export type OAuthOriginSettings = Pick<Config, 'GITHUB_APP_CLIENT_ID' | 'GITHUB_APP_CLIENT_SECRET' | 'PUBLIC_URL'>;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** The issuer and resource origin for a request, or undefined when OAuth is not offered there. */
export function oauthOrigin(config: OAuthOriginSettings, requestUrl: string): string | undefined {
  if (config.GITHUB_APP_CLIENT_ID === undefined || config.GITHUB_APP_CLIENT_SECRET === undefined) return undefined;
  const url = new URL(requestUrl);
  if (config.PUBLIC_URL !== undefined && config.PUBLIC_URL !== url.origin) return undefined;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname))) return url.origin;
  return undefined;
}

/** The MCP server's resource (RFC 8707, RFC 9728): `<origin>/mcp`. */
export const mcpResource = (origin: string): string => `${origin}/mcp`;
/** The REST API's resource: the origin, which covers `/tasks` and `/knowledge`. */
export const apiResource = (origin: string): string => origin;
