/**
 * @module routes/groups/resource-metadata
 * Each protected resource's metadata (RFC 9728), `/.well-known/oauth-protected-resource` for the
 * REST API and `/.well-known/oauth-protected-resource/mcp` for the MCP server, served by the main
 * Worker that hosts the resources (auth/resource-server); the authorization Worker serves the
 * authorization server's own (routes/groups/auth-forward). Serving it asks nothing of the
 * authorization Worker, so it answers without the AUTH_SERVER binding too. Loaded on first use.
 */
import { originOrAnswer } from '../../auth/no-oauth-here.ts';
import { protectedResource, type ApiHandler } from '../../auth/resource-server.ts';
import { getConfig } from '../../env.ts';

export const app: ApiHandler = {
  fetch(request, env, ctx) {
    const origin = originOrAnswer(() => getConfig(env), request);
    if (origin instanceof Response) return origin;
    // Only the metadata is served here; the resources themselves are the API group's.
    return protectedResource(origin, new URL(request.url).pathname, { fetch: () => new Response(null, { status: 404 }) }).fetch(request, env, ctx);
  },
};
