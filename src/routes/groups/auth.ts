/**
 * @module routes/groups/auth
 * Signing in with GitHub and OAuth 2.1 for MCP clients (auth/, routes/auth): the consent page, the
 * inspector's sign-in and sign-out and GitHub's callback (routes/auth), and what the OAuth provider
 * serves itself: authorization server metadata (`/.well-known/oauth-authorization-server`), each
 * resource's metadata (`/.well-known/oauth-protected-resource[/mcp]`), the token endpoint with
 * revocation (`/oauth/token`) and dynamic client registration (`/oauth/register`). Loaded by the
 * Worker's entry on the first such request an isolate serves (index.ts); it carries the provider.
 */
import { authorizationServer, protectedResource, type ApiHandler } from '../../auth/oauth-server.ts';
import { oauthOrigin } from '../../auth/oauth-origin.ts';
import { getConfig } from '../../env.ts';
import { envelope } from '../../http/errors.ts';
import { routedApp } from '../../http/routed-app.ts';
import { authRoutes } from '../auth.tsx';

const pages = routedApp((app) => app.route('/', authRoutes()));
const PAGES = new Set(['/authorize', '/signin', '/signout', '/oauth/callback']);
const RESOURCE_METADATA = '/.well-known/oauth-protected-resource';

export const app: ApiHandler = {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (PAGES.has(path)) return pages.fetch(request, env, ctx);
    let origin: string | undefined;
    try {
      origin = oauthOrigin(getConfig(env), request.url);
    } catch {
      // A configuration error: the pages' app answers it with the 503 envelope.
      return pages.fetch(request, env, ctx);
    }
    if (origin === undefined) {
      const requestId = crypto.randomUUID();
      const message = `no OAuth here: ${path} is served where people sign in with GitHub (GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET set, at PUBLIC_URL or an https origin); use an API token`;
      return Response.json(envelope('not_found', message, requestId), { status: 404, headers: { 'x-request-id': requestId } });
    }
    if (path === RESOURCE_METADATA || path.startsWith(`${RESOURCE_METADATA}/`)) {
      // Only the metadata is served here; the resources themselves are the API group's.
      return protectedResource(origin, path, { fetch: () => new Response(null, { status: 404 }) }).fetch(request, env, ctx);
    }
    return authorizationServer(origin).fetch(request, env, ctx);
  },
};
