/**
 * @module auth/resource-server
 * The main Worker's two protected resources, the MCP server (`<origin>/mcp`) and the REST API
 * (`<origin>`, covering `/tasks` and `/knowledge`), hosted with @cloudflare/workers-oauth-provider
 * 1.2.3's `OAuthResourceServer`, whose token check is the authorization Worker's
 * (src/auth-worker.ts) over the `AUTH_SERVER` Service Binding: the library's "Separate Workers"
 * topology (its docs/resource-servers.md: "Only the authorization server can validate a token …
 * A resource Worker therefore asks it, over a Service Binding"; one RPC per request, revocation
 * immediate). The host serves RFC 9728 metadata at `/.well-known/oauth-protected-resource[/mcp]`,
 * answers a missing or refused token with its 401 challenge naming it, passes its own resource to
 * the validator and refuses a grant for another audience (RFC 8707).
 *
 * The library says an `OAuthError` thrown in the other Worker arrives as a plain `Error`, and
 * anything but an `OAuthError` thrown by the validator is a bare 503: so the validator here turns a
 * failed RPC into a 503 `OAuthError` that names the binding (auth/api-gate gives it the envelope).
 *
 * Loaded on first use only (auth/api-gate, routes/groups/resource-metadata): an API token's request
 * never needs it. Of the provider, only `OAuthResourceServer` and `OAuthError` are in this upload.
 */
import { OAuthError, OAuthResourceServer } from '@cloudflare/workers-oauth-provider';
import { AUTH_SERVER_BINDING, authServerOf, unreachableReason } from './auth-binding.ts';
import type { GrantProps } from './identity.ts';
import { apiResource, mcpResource } from './oauth-origin.ts';

export interface ApiHandler {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response>;
}

/** `/mcp` or the REST API behind its resource's token check; `handler` sees the person as `ctx.props`. */
export function protectedResource(origin: string, path: string, handler: ApiHandler): OAuthResourceServer<Env, GrantProps> {
  const mcp = path === '/mcp' || path.startsWith('/mcp/') || path === '/.well-known/oauth-protected-resource/mcp';
  const resource = mcp ? mcpResource(origin) : apiResource(origin);
  return new OAuthResourceServer<Env, GrantProps>({
    resourceMetadata: { resource, authorization_servers: [origin], resource_name: mcp ? 'Groundwork MCP server' : 'Groundwork REST API' },
    validateToken: (env) => async (target, token) => {
      const server = authServerOf(env);
      if (server === undefined) throw unavailable(`no ${AUTH_SERVER_BINDING} service binding`);
      try {
        return await server.validateToken(target, token);
      } catch (error) {
        throw unavailable(unreachableReason(error));
      }
    },
    handler,
  });
}

function unavailable(reason: string): OAuthError {
  return new OAuthError('temporarily_unavailable', { statusCode: 503, description: `the authorization Worker (the ${AUTH_SERVER_BINDING} service binding, groundwork-auth) could not check the token: ${reason}` });
}
