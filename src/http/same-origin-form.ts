/**
 * @module http/same-origin-form
 * Whether a form post came from a page of this site, as browsers say it: `Sec-Fetch-Site` first
 * (Fetch Metadata, sent by Chromium 76+, Firefox 90+ and Safari 16.4+: MDN "Sec-Fetch-Site"),
 * then `Origin`. The Origin header alone cannot decide it for our own pages: they send
 * `Referrer-Policy: no-referrer`, under which a browser serializes a form post's origin as `null`
 * (Fetch standard, "serializing a request origin"), exactly as it does for a page elsewhere with
 * that policy. A request with neither header comes from no browser page (curl, a script) and is
 * allowed: a cross-site form cannot strip both. The same order as Go 1.25's
 * `net/http.CrossOriginProtection`.
 */

export function fromThisSite(headers: { get(name: string): string | null }, requestUrl: string): boolean {
  const site = headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin' || site === 'none';
  const origin = headers.get('origin');
  return origin === null || origin === new URL(requestUrl).origin;
}
