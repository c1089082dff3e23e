/**
 * @module routes/groups/auth-forward
 * The authorization server's paths (`/authorize`, `/signin`, `/signout`, `/oauth/*` with GitHub's
 * callback, `/.well-known/oauth-authorization-server`), handed as they came to the authorization
 * Worker through the `AUTH_SERVER` Service Binding (src/auth-worker.ts). A Service Binding's
 * `fetch` delivers the request with its URL, method, headers and body unchanged (Cloudflare,
 * "Service bindings": the request is passed to the bound Worker's fetch handler), so the issuer,
 * the endpoints in the discovery document and GitHub's callback URL stay this origin, and tokens
 * issued before the split stay valid (same issuer, same KV). Loaded on the first such request.
 *
 * An answer that is not the authorization Worker's (it marks each, auth/auth-binding) or a binding
 * that throws is a 503 naming the binding. Without the binding: where this deployment signs no one in (no GitHub App client secret, another
 * origin), the same 404 the authorization Worker gives; where it does, a 503 naming the binding.
 */
import { AUTH_WORKER_MARK, authServerOf, authServerUnavailable, unreachableReason } from '../../auth/auth-binding.ts';
import { noOAuthHere } from '../../auth/no-oauth-here.ts';
import { oauthOrigin } from '../../auth/oauth-origin.ts';

export const app = {
  async fetch(request: Request, env: Env): Promise<Response> {
    const server = authServerOf(env);
    if (server === undefined) return (await offered(env, request)) ? authServerUnavailable() : noOAuthHere(new URL(request.url).pathname);
    let response: Response;
    try {
      response = await server.fetch(request);
    } catch (error) {
      return authServerUnavailable(unreachableReason(error));
    }
    if (response.headers.get(AUTH_WORKER_MARK) === null) {
      const text = await response.text().catch(() => '');
      return authServerUnavailable(`it answered ${response.status} without being groundwork-auth (${text.slice(0, 120) || 'no body'})`);
    }
    const forwarded = new Response(response.body, response);
    forwarded.headers.delete(AUTH_WORKER_MARK);
    return forwarded;
  },
};

/** Whether this origin signs people in; the settings (and zod) load only here, where no binding is. */
async function offered(env: Env, request: Request): Promise<boolean> {
  try {
    const { getConfig } = await import('../../env.ts');
    return oauthOrigin(getConfig(env), request.url) !== undefined;
  } catch {
    // A configuration this Worker cannot read: say what is missing rather than pretend nothing is.
    return true;
  }
}
