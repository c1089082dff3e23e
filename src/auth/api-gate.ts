/**
 * @module auth/api-gate
 * The outer handler of `/mcp` and the REST API (routes/groups/api). A machine host's API token goes
 * straight to the routes, as before, without loading the OAuth provider. Where this deployment is
 * an OAuth server (auth/oauth-origin), everything else goes through the provider's protected
 * resource first, which answers a missing or refused token with its 401 challenge
 * (`WWW-Authenticate: Bearer resource_metadata="…"`) and hands a valid one's person to the routes
 * as `ctx.props` (the reference pattern of Cloudflare's remote MCP server with GitHub login: the
 * provider outside, the API handler seeing only an authenticated `props`). Its bodiless refusals
 * get the API's error envelope, headers kept. The token itself is checked by the authorization
 * Worker over the AUTH_SERVER binding (auth/resource-server); without the binding a person's
 * request is a 503 naming it (auth/auth-binding), never passed on.
 */
import { getConfig } from '../env.ts';
import { tenantForToken } from '../http/bearer-auth.ts';
import { envelope, type ErrorCode } from '../http/errors.ts';
import { originAllowed } from '../mcp/allowed-origin.ts';
import { oncePromise } from '../lib/once-promise.ts';
import { authServerOf, authServerUnavailable } from './auth-binding.ts';
import { oauthOrigin } from './oauth-origin.ts';
import type { ApiHandler } from './resource-server.ts';

const loadResourceServer = oncePromise(() => import('./resource-server.ts'));

const REFUSED: Record<number, { code: ErrorCode; message: string }> = {
  401: { code: 'unauthorized', message: 'sign in: this needs an access token from this service (an MCP client signs in with GitHub by itself) or an API token' },
  403: { code: 'forbidden', message: 'the access token does not allow this' },
  404: { code: 'not_found', message: 'not a resource of this service' },
  503: { code: 'not_configured', message: 'the access token could not be checked; try again' },
};

export function gateApi(app: ApiHandler): ApiHandler {
  return {
    async fetch(request, env, ctx) {
      let origin: string | undefined;
      try {
        origin = oauthOrigin(getConfig(env), request.url);
      } catch {
        // A configuration error: the routes answer it with their 503 envelope.
        return app.fetch(request, env, ctx);
      }
      if (origin === undefined) return app.fetch(request, env, ctx);
      const path = new URL(request.url).pathname;
      // A page on a foreign origin is refused before any token is looked at (the route answers 403).
      const config = getConfig(env);
      const policy = { publicUrl: config.PUBLIC_URL, allowed: config.MCP_ALLOWED_ORIGINS, requestUrl: request.url };
      if (path === '/mcp' && request.method !== 'OPTIONS' && !originAllowed(request.headers.get('origin') ?? undefined, policy)) return app.fetch(request, env, ctx);
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      if (bearer !== undefined && (await tenantForToken(bearer, getConfig(env).API_TOKENS)) !== undefined) return app.fetch(request, env, ctx);
      if (authServerOf(env) === undefined) return authServerUnavailable();
      const { protectedResource } = await loadResourceServer();
      const response = await protectedResource(origin, path, app).fetch(request, env, ctx);
      return withEnvelope(response);
    },
  };
}

/** The provider's own refusals carry no body (or an OAuth JSON one); the API answers with its envelope. */
async function withEnvelope(response: Response): Promise<Response> {
  const refused = REFUSED[response.status];
  if (!refused || response.headers.get('x-request-id') !== null) return response;
  const requestId = crypto.randomUUID();
  const text = await response.text();
  const description = /"error_description"\s*:\s*"([^"]{1,300})"/.exec(text)?.[1];
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  headers.set('x-request-id', requestId);
  return new Response(JSON.stringify(envelope(refused.code, description ? `${refused.message}: ${description}` : refused.message, requestId)), { status: response.status, headers });
}
