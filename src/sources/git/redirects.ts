/**
 * @module sources/git/redirects
 * Redirects of smart-HTTP requests, always followed here rather than by `fetch`, so one rule
 * holds whatever the transport: credentials go only to the origin they were given for. The
 * first hop of a request is that origin; once a hop changes scheme, host or port, the
 * `Authorization` (and any `Proxy-Authorization` or `Cookie`) header is dropped for the rest of
 * the chain and never restored, even on a hop back. A host policy can refuse any hop.
 */
import type { FetchLike } from './http-client.ts';

export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

export interface RedirectPolicy {
  /** Why a hop to `url` must not be made (e.g. a host outside an allowlist), or undefined. */
  refuse?: (url: URL) => string | undefined;
  maxRedirects?: number;
}

/**
 * @example
 * const transport = followRedirects(fetch, { refuse: (url) => (url.hostname === 'git.example.com' ? undefined : `${url.hostname} is not allowed`) });
 */
export function followRedirects(fetch: FetchLike, policy: RedirectPolicy = {}): FetchLike {
  const max = policy.maxRedirects ?? MAX_REDIRECTS;
  return async (url, init) => {
    const origin = new URL(url).origin;
    let target = new URL(url);
    let request = init;
    for (let hop = 0; hop <= max; hop++) {
      const refused = policy.refuse?.(target);
      if (refused) throw new Error(refused);
      if (target.origin !== origin) request = { ...request, headers: withoutCredentials(request.headers) };
      const response = await fetch(target.toString(), { ...request, redirect: 'manual' });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null) return response;
      await response.body?.cancel();
      target = nextHop(location, target);
      // 303 asks for a GET of another resource; the others repeat the request as it was.
      if (response.status === 303) request = { method: 'GET', headers: request.headers, ...(request.signal ? { signal: request.signal } : {}) };
    }
    throw new Error(`more than ${max} redirects from ${origin}${new URL(url).pathname}`);
  };
}

function nextHop(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new Error(`a redirect from ${from.origin} named a location that is not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`a redirect from ${from.origin} left http(s) for ${next.protocol}`);
  // A location can carry userinfo of its own; it is never sent anywhere.
  next.username = '';
  next.password = '';
  return next;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}
