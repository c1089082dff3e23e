/**
 * @module auth/auth-binding
 * The main Worker's way to the authorization Worker (src/auth-worker.ts): the `AUTH_SERVER`
 * Service Binding (wrangler.toml `[[services]]`), and the answer when it is missing or does not
 * answer. A person's request never passes without it: no binding, or a binding that throws, is a
 * 503 naming the setting, never a 500 and never an allow (auth/api-gate, routes/groups/auth-forward).
 * API tokens are checked here in the main Worker and never need it.
 *
 * Small and free of the provider: the route groups that ask it load on first use.
 */
import { envelope } from '../http/errors.ts';

/** The binding's name, which the refusals below name for the operator. */
export const AUTH_SERVER_BINDING = 'AUTH_SERVER';

export type AuthServerBinding = Env['AUTH_SERVER'];

/**
 * Set by the authorization Worker on every answer and removed by the forward: an answer without it
 * came from something else where the binding points (`wrangler dev` without wrangler.auth.toml
 * answers "Worker … not found" itself, 503 text), which the forward reports as unreachable.
 */
export const AUTH_WORKER_MARK = 'x-groundwork-auth-worker';

/** The binding, or undefined where wrangler.toml binds no authorization Worker. */
export function authServerOf(env: Env): AuthServerBinding | undefined {
  // Typed as always present (wrangler types); a configuration without `[[services]]` has none.
  return (env as Partial<Pick<Env, 'AUTH_SERVER'>>).AUTH_SERVER;
}

/** Why the authorization Worker could not be asked, for a 503's message and the log. */
export function unreachableReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/"/g, "'").slice(0, 200);
}

const MISSING = `people's sign-ins and access tokens are served by the authorization Worker (groundwork-auth), which this deployment reaches through the ${AUTH_SERVER_BINDING} service binding; it is not bound: deploy wrangler.auth.toml and bind it in wrangler.toml [[services]] (docs/deploy.md)`;

/** The 503 envelope for a request that needs the authorization Worker: `reason` when it did not answer, else missing. */
export function authServerUnavailable(reason?: string): Response {
  const requestId = crypto.randomUUID();
  const message = reason === undefined ? MISSING : `the authorization Worker (the ${AUTH_SERVER_BINDING} service binding, groundwork-auth) did not answer: ${reason}; try again, or check that groundwork-auth is deployed (docs/deploy.md)`;
  console.error(`[${requestId}] ${message}`);
  return Response.json(envelope('not_configured', message, requestId), { status: 503, headers: { 'x-request-id': requestId, 'retry-after': '30' } });
}
