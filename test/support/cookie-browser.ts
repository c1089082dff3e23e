/**
 * @module test/support/cookie-browser
 * A person's browser for the sign-in flows, without a real one: it follows redirects itself across
 * origins (the Worker, the GitHub API test server), keeps each host's cookies as a browser would
 * (including the `__Host-` ones the Worker sets) and is signed in to GitHub as one user (the
 * `github_session` cookie the test server reads, test/support/github-api-users). `send` is how a
 * request leaves it: the Worker's entry in workerd (test/support/oauth-browser), plain `fetch`
 * against `wrangler dev` in Node. Imports nothing of the runtime, so both can use it.
 */

export type Send = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface Browser {
  /** GET `url` and follow redirects until an answer that is not one, or one leaving for `stopAt` (the client's redirect URI). */
  open(url: string, options?: { stopAt?: string }): Promise<{ response: Response; url: string }>;
  /** POST a form from the page at `url`, then follow redirects as `open` does. */
  submit(url: string, fields: Record<string, string>, options?: { stopAt?: string }): Promise<{ response: Response; url: string }>;
  cookies(host: string): Map<string, string>;
}

/** `githubWebRoot`: where the GitHub test server's sign-in lives (its host gets the session cookie). */
export function cookieBrowser(send: Send, githubWebRoot: string, githubLogin?: string): Browser {
  const jar = new Map<string, Map<string, string>>();
  const cookiesOf = (host: string) => {
    let cookies = jar.get(host);
    if (!cookies) jar.set(host, (cookies = new Map()));
    return cookies;
  };
  if (githubLogin) cookiesOf(new URL(githubWebRoot).host).set('github_session', githubLogin);

  const request = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const host = new URL(url).host;
    const cookie = [...cookiesOf(host)].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await send(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const cut = pair.indexOf('=');
      const name = pair.slice(0, cut).trim();
      const value = pair.slice(cut + 1).trim();
      const cleared = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (cleared) cookiesOf(host).delete(name);
      else cookiesOf(host).set(name, value);
    }
    return response;
  };

  const follow = async (first: Response, from: string, stopAt: string | undefined) => {
    let response = first;
    let url = from;
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      const location = response.headers.get('location');
      if (!location) break;
      url = new URL(location, url).toString();
      await response.body?.cancel();
      if (stopAt !== undefined && url.startsWith(stopAt)) return { response: new Response(null, { status: 302, headers: { location: url } }), url };
      response = await request(url);
    }
    return { response, url };
  };

  return {
    async open(url, options = {}) {
      return follow(await request(url), url, options.stopAt);
    },
    async submit(url, fields, options = {}) {
      // What Chromium sends for a form of the same site's page, whose Referrer-Policy is no-referrer: an origin of `null`.
      const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin' };
      const response = await request(url, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
      return follow(response, url, options.stopAt);
    },
    cookies: cookiesOf,
  };
}

/** The value of a hidden form field on a page. */
export function formField(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (found === undefined) throw new Error(`no field ${name} on the page: ${html.slice(0, 300)}`);
  return found;
}
