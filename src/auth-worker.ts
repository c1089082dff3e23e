/**
 * @module auth-worker
 * The authorization Worker (`groundwork-auth`, wrangler.auth.toml): this deployment's OAuth 2.1
 * authorization server with @cloudflare/workers-oauth-provider 1.2.3 and our sign-in and consent
 * routes, in a Worker of its own, the library's "Separate Workers" topology
 * (node_modules/@cloudflare/workers-oauth-provider/docs/resource-servers.md, 1.2.3). The main
 * Worker (src/index.ts) binds it as `AUTH_SERVER` (a Service Binding, never a public URL) and
 *
 * - forwards the authorization server's paths to `fetch` (routes/groups/auth-forward): the request
 *   keeps its URL, so the issuer, the endpoints and GitHub's callback stay on the main Worker's
 *   origin;
 * - asks `validateToken` (RPC on the `WorkerEntrypoint`) about each person's access token on `/mcp`
 *   and the REST API (auth/resource-server); API tokens never come here.
 *
 * Only this Worker can validate a token: the grants' props are encrypted with a key the token
 * wraps, and the records live in `OAUTH_KV`, which both Workers bind (the main Worker for the
 * inspector's sessions, written here at GitHub's callback). Its upload is the provider (about 33
 * KiB gzipped) and the pages, which the main Worker's upload no longer carries (.ci/check-bundle).
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import type { ValidatedAccessToken } from '@cloudflare/workers-oauth-provider';
import { AUTH_WORKER_MARK } from './auth/auth-binding.ts';
import { authorizationServer } from './auth/oauth-server.ts';
import { oauthOrigin } from './auth/oauth-origin.ts';
import type { GrantProps } from './auth/identity.ts';
import { getAuthSettings } from './auth/auth-settings.ts';
import { app } from './routes/groups/auth.ts';

export default class AuthServer extends WorkerEntrypoint<Env> {
  /** The forwarded request, answered with the mark the main Worker looks for (and removes). */
  override async fetch(request: Request): Promise<Response> {
    const response = await app.fetch(request, this.env, this.ctx);
    const marked = new Response(response.body, response);
    marked.headers.set(AUTH_WORKER_MARK, '1');
    return marked;
  }

  /**
   * The token's grant for `resource` (`<origin>/mcp` or `<origin>`, as the main Worker's resource
   * server passes its own), or null for a token that is not valid there. Throws for a resource this
   * Worker does not serve (its PUBLIC_URL or GitHub App settings differ from the main Worker's),
   * which the caller answers with 503: a misconfiguration is never a refusal or an allow.
   */
  async validateToken(resource: string, token: string): Promise<ValidatedAccessToken<GrantProps> | null> {
    const origin = oauthOrigin(getAuthSettings(this.env), resource);
    if (origin === undefined) {
      throw new Error(`groundwork-auth does not issue tokens for ${resource}: set GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET and PUBLIC_URL alike in both Workers`);
    }
    return authorizationServer(origin).validateToken<GrantProps>(resource, token, this.env);
  }
}
