/**
 * @module http/page-headers
 * The security headers every inspector page is sent with: a CSP that allows nothing but the
 * page's one stylesheet (by a nonce made per response), no framing, no referrer, and the defaults
 * hono/secure-headers sets beside them. These were `secureHeaders({ contentSecurityPolicy, xFrameOptions:
 * 'DENY', referrerPolicy: 'no-referrer' })` (hono 4.13.19); the pages use one fixed configuration,
 * so they are written out here, and the middleware's option handling (permissions policy,
 * reporting endpoints, CSP directives built from camel-case names), about 0.9 KiB of the Worker's
 * upload gzipped, is not bundled. test/http/page-headers.test.ts holds them equal to what that
 * middleware sets with those options.
 */
import type { MiddlewareHandler } from 'hono';

/** What the page's `<style nonce>` must carry; set before the page is rendered. */
export const NONCE_VARIABLE = 'secureHeadersNonce';

export type PageHeadersEnv = { Variables: { [NONCE_VARIABLE]?: string } };

/** In the order hono/secure-headers sets them (its HEADERS_MAP, then the CSP). */
const FIXED_HEADERS: readonly (readonly [string, string])[] = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

export function contentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

/** 16 random bytes in base64, as hono/secure-headers makes a nonce. */
function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export const pageHeaders: MiddlewareHandler<PageHeadersEnv> = async (c, next) => {
  const nonce = newNonce();
  c.set(NONCE_VARIABLE, nonce);
  await next();
  for (const [name, value] of FIXED_HEADERS) c.res.headers.set(name, value);
  c.res.headers.set('Content-Security-Policy', contentSecurityPolicy(nonce));
  c.res.headers.delete('X-Powered-By');
};
