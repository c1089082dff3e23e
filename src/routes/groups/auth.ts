/**
 * @module routes/groups/auth
 * What the authorization Worker serves (src/auth-worker.ts), which the main Worker forwards to it
 * (routes/groups/auth-forward): signing in with GitHub and OAuth 2.1 for MCP clients (auth/,
 * routes/auth): the consent page, the inspector's sign-in and sign-out and GitHub's callback
 * (routes/auth), and what the OAuth provider serves itself: authorization server metadata
 * (`/.well-known/oauth-authorization-server`), the token endpoint with revocation (`/oauth/token`)
 * and dynamic client registration (`/oauth/register`). Each resource's metadata
 * (`/.well-known/oauth-protected-resource[/mcp]`, RFC 9728) is the main Worker's
 * (routes/groups/resource-metadata).
 */
import { authorizationServer } from '../../auth/oauth-server.ts';
import type { ApiHandler } from '../../auth/resource-server.ts';
import { getAuthSettings } from '../../auth/auth-settings.ts';
import { originOrAnswer } from '../../auth/no-oauth-here.ts';
import { routedApp } from '../../http/routed-app.ts';
import { authRoutes } from '../auth.tsx';

const pages = routedApp((app) => app.route('/', authRoutes()));
const PAGES = new Set(['/authorize', '/signin', '/signout', '/oauth/callback']);

export const app: ApiHandler = {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (PAGES.has(path)) return pages.fetch(request, env, ctx);
    // A configuration error is the 503 envelope naming the settings, as the pages answer it.
    const origin = originOrAnswer(() => getAuthSettings(env), request);
    return origin instanceof Response ? origin : authorizationServer(origin).fetch(request, env, ctx);
  },
};
