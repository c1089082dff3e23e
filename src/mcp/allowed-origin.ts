/**
 * @module mcp/allowed-origin
 * Which browser origins may call `/mcp` (the transport's DNS-rebinding guard: "Servers MUST
 * validate the Origin header on all incoming connections", 2026-07-28 Streamable HTTP, Security).
 * A request without `Origin` is not a browser's and passes. Allowed: the configured origins
 * (`MCP_ALLOWED_ORIGINS`) and this service's own origin, which is `PUBLIC_URL` when it is set.
 *
 * Without `PUBLIC_URL` (as under `npm run dev`) the service's own origin is the one the request
 * reached, but only on a loopback host: a rebinding page's origin is the attacker's name, and the
 * request it makes reaches the service under that same name, so "the origin the request reached"
 * would let every such page in. On `localhost`, `127.0.0.1` or `[::1]` no other site's page can
 * carry that origin, so the dev server's own pages (and the conformance suite's probe) are served.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface OriginPolicy {
  publicUrl: string | undefined;
  allowed: readonly string[];
  /** The URL the request reached. */
  requestUrl: string;
}

export function originAllowed(origin: string | undefined, policy: OriginPolicy): boolean {
  if (origin === undefined) return true;
  if (policy.allowed.includes(origin)) return true;
  if (policy.publicUrl !== undefined) return origin === policy.publicUrl;
  const reached = new URL(policy.requestUrl);
  return LOOPBACK.has(reached.hostname) && origin === reached.origin;
}
