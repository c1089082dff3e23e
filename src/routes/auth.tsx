/**
 * @module routes/auth
 * Signing in with GitHub, in a browser. Two flows share GitHub's one callback (`/oauth/callback`,
 * the App's callback URL):
 *
 * - An MCP client's authorization (auth/oauth-server): `GET /authorize` checks the request (client,
 *   exact redirect URI, PKCE, resource) and asks the person's consent for that client;
 *   `POST /authorize` sends them to GitHub (the provider keeps the request server-side and binds
 *   `state` to the browser); the callback exchanges GitHub's code (PKCE), asks GitHub who it is, and
 *   completes the authorization: a code for the client, then tokens from `/oauth/token`.
 * - The inspector's sign-in: `GET /signin?return=/view` goes to GitHub with a `state` and PKCE
 *   verifier kept in a short-lived `__Host-` cookie; the callback makes a session (auth/session) and
 *   returns to the page. `POST /signout` ends it.
 *
 * A request the provider cannot trust with a redirect (an unknown client, a redirect URI it did not
 * register, no PKCE) is answered with a page here, never sent anywhere (docs/consent-page.md).
 */
import { AuthorizationError, authorizationErrorRedirect, CimdFetchError, type AuthRequest } from '@cloudflare/workers-oauth-provider';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { exchangeGitHubCode, githubAuthorizeUrl, githubUser, type GitHubOAuthApp } from '../auth/github-user.ts';
import type { Person } from '../auth/identity.ts';
import { oauthOrigin } from '../auth/oauth-origin.ts';
import { oauthHelpers } from '../auth/oauth-server.ts';
import { cookieValue, createSession, deleteSession, SESSION_COOKIE, sessionCookie, toBase64Url } from '../auth/session.ts';
import { getAuthSettings } from '../auth/auth-settings.ts';
import type { AppEnv } from '../http/app-env.ts';
import { secretsEqual } from '../http/constant-time.ts';
import { fromThisSite } from '../http/same-origin-form.ts';
import { Hono } from '../http/hono.ts';
import { githubWebRoot } from '../sources/github/location.ts';
import { ConsentPage } from '../views/consent-page.tsx';
import { ErrorPage } from '../views/error-page.tsx';

const SIGNIN_COOKIE = '__Host-groundwork-signin';
const SIGNIN_SECONDS = 600;
/** A path on this site to return to after signing in: never another origin (`//host`, `/\host`). */
const RETURN_PATH = /^\/(?![/\\])[^\s\\]{0,2000}$/;

export function authRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  /** A page under a strict policy: no scripts, our stylesheet by nonce, forms only to `formTargets`. */
  const page = (c: Context<AppEnv>, render: (nonce: string) => Child, status: ContentfulStatusCode = 200, headers?: Headers, formTargets: string[] = []) => {
    const nonce = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
    headers?.forEach((value, name) => c.header(name, value, { append: true }));
    c.header('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'self' ${formTargets.join(' ')}; frame-ancestors 'none'`.replace(/ +;/g, ';'));
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    return c.html(html`<!doctype html>${render(nonce)}`, status);
  };
  const problem = (c: Context<AppEnv>, status: ContentfulStatusCode, title: string, message: string, hint?: string) =>
    page(c, (nonce) => <ErrorPage title={title} message={message} hint={hint} nonce={nonce} requestId={c.get('requestId')} />, status);
  const notOffered = (c: Context<AppEnv>) =>
    problem(c, 404, 'Sign-in is not available here', 'This deployment signs no one in with GitHub at this address.', 'Its operator sets GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET (and PUBLIC_URL, where it is set, names the address).');
  const githubApp = (env: Env): GitHubOAuthApp => {
    const config = getAuthSettings(env);
    return { clientId: config.GITHUB_APP_CLIENT_ID ?? '', clientSecret: config.GITHUB_APP_CLIENT_SECRET ?? '', apiUrl: config.GITHUB_API_URL, fetch: (input, init) => fetch(input, init), now: () => Date.now() };
  };
  /** A refused authorization request as the provider says to answer it: back to a client it validated, else a page. */
  const refused = (c: Context<AppEnv>, error: unknown) => {
    if (error instanceof AuthorizationError && error.redirectTo) return c.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) return problem(c, 400, 'This sign-in request is not valid', error.description ?? error.message, 'Start again from your app.');
    if (error instanceof CimdFetchError) return problem(c, 400, 'This app could not be verified', 'Its client metadata document could not be read.');
    throw error;
  };
  /** Who GitHub says the code belongs to, with their token; or why not. */
  const signInWithCode = async (c: Context<AppEnv>, origin: string, verifier: string): Promise<{ ok: true; person: Person } | { ok: false; reason: string; unavailable: boolean }> => {
    const code = c.req.query('code');
    if (!code) return { ok: false, reason: 'GitHub sent no code back', unavailable: false };
    const app = githubApp(c.env);
    const token = await exchangeGitHubCode(app, { code, redirectUri: `${origin}/oauth/callback`, codeVerifier: verifier });
    if (!token.ok) return { ok: false, reason: token.reason, unavailable: token.kind === 'unavailable' };
    const user = await githubUser(app, token.value.accessToken);
    if (!user.ok) return { ok: false, reason: user.reason, unavailable: user.kind === 'unavailable' };
    return { ok: true, person: { userId: user.value.id, login: user.value.login, github: token.value } };
  };

  app.get('/authorize', async (c) => {
    const origin = oauthOrigin(getAuthSettings(c.env), c.req.url);
    if (!origin) return notOffered(c);
    const oauth = oauthHelpers(origin, c.env);
    let request: AuthRequest;
    try {
      request = await oauth.parseAuthRequest(c.req.raw);
      const details = await oauth.describeConsent(request);
      const consent = await oauth.beginConsent(request);
      const model = { clientName: details.clientName, redirectHost: details.redirectHost, redirectIsLoopback: details.redirectIsLoopback, handle: consent.handle };
      return page(c, (nonce) => <ConsentPage model={model} nonce={nonce} />, 200, consent.headers, [new URL(githubWebRoot(getAuthSettings(c.env).GITHUB_API_URL)).origin, redirectOrigin(request.redirectUri)]);
    } catch (error) {
      return refused(c, error);
    }
  });

  app.post('/authorize', async (c) => {
    const origin = oauthOrigin(getAuthSettings(c.env), c.req.url);
    if (!origin) return notOffered(c);
    const oauth = oauthHelpers(origin, c.env);
    const form = await c.req.raw.clone().formData();
    const handle = String(form.get('handle') ?? '');
    try {
      if (form.get('decision') !== 'approve') {
        const denied = await oauth.denyConsent(c.req.raw, handle);
        return new Response(null, { status: 302, headers: denied.headers });
      }
      const approved = await oauth.approveConsent(c.req.raw, handle);
      const verifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
      const { state, headers } = await oauth.beginUpstream(approved.request, { data: { verifier }, headers: approved.headers });
      headers.set('Location', githubAuthorizeUrl(githubApp(c.env), { redirectUri: `${origin}/oauth/callback`, state, codeChallenge: await challengeOf(verifier) }));
      return new Response(null, { status: 302, headers });
    } catch (error) {
      return refused(c, error);
    }
  });

  app.get('/signin', async (c) => {
    const origin = oauthOrigin(getAuthSettings(c.env), c.req.url);
    if (!origin) return notOffered(c);
    const back = c.req.query('return') ?? '/view';
    if (!RETURN_PATH.test(back)) return problem(c, 400, 'Bad query', 'return: a path on this site to come back to, such as /view.');
    const state = `signin.${toBase64Url(crypto.getRandomValues(new Uint8Array(24)))}`;
    const verifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    const pending = toBase64Url(new TextEncoder().encode(JSON.stringify({ state, verifier, back })));
    c.header('Set-Cookie', `${SIGNIN_COOKIE}=${pending}; Path=/; Max-Age=${SIGNIN_SECONDS}; HttpOnly; Secure; SameSite=Lax`);
    c.header('Cache-Control', 'no-store');
    return c.redirect(githubAuthorizeUrl(githubApp(c.env), { redirectUri: `${origin}/oauth/callback`, state, codeChallenge: await challengeOf(verifier) }), 302);
  });

  app.get('/oauth/callback', async (c) => {
    const origin = oauthOrigin(getAuthSettings(c.env), c.req.url);
    if (!origin) return notOffered(c);
    const state = c.req.query('state') ?? '';
    if (state.startsWith('signin.')) return finishSignIn(c, origin, state);
    const oauth = oauthHelpers(origin, c.env);
    let resumed;
    try {
      resumed = await oauth.finishUpstream<{ verifier: string }>(c.req.raw);
    } catch (error) {
      return refused(c, error);
    }
    const back = (code: Parameters<typeof authorizationErrorRedirect>[1], description: string) => {
      resumed.headers.set('Location', authorizationErrorRedirect(resumed.request, code, description));
      return new Response(null, { status: 302, headers: resumed.headers });
    };
    if (c.req.query('error') !== undefined) return back('access_denied', 'the GitHub sign-in was declined');
    const signedIn = await signInWithCode(c, origin, resumed.data.verifier);
    if (!signedIn.ok) return back(signedIn.unavailable ? 'temporarily_unavailable' : 'access_denied', signedIn.reason.slice(0, 300));
    const { person } = signedIn;
    const { redirectTo } = await oauth.completeAuthorization({
      request: resumed.request,
      userId: String(person.userId),
      metadata: { login: person.login },
      scope: resumed.request.scope,
      props: { person },
    });
    resumed.headers.set('Location', redirectTo);
    return new Response(null, { status: 302, headers: resumed.headers });
  });

  const finishSignIn = async (c: Context<AppEnv>, origin: string, state: string) => {
    c.header('Set-Cookie', `${SIGNIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`, { append: true });
    const pending = readPending(cookieValue(c.req.header('cookie'), SIGNIN_COOKIE));
    // Only the browser that started this sign-in can finish it: a code sent to another is useless.
    if (!pending || !(await secretsEqual(pending.state, state))) return problem(c, 400, 'This sign-in has expired', 'It was started in another browser, used already, or is more than ten minutes old.', 'Sign in again.');
    if (c.req.query('error') !== undefined) return problem(c, 403, 'Not signed in', 'The GitHub sign-in was declined.');
    const signedIn = await signInWithCode(c, origin, pending.verifier);
    if (!signedIn.ok) return problem(c, signedIn.unavailable ? 502 : 403, 'Not signed in', signedIn.reason, 'Sign in again.');
    const session = await createSession(c.env.OAUTH_KV, signedIn.person, Date.now());
    c.header('Set-Cookie', sessionCookie(session, Date.now()), { append: true });
    c.header('Cache-Control', 'no-store');
    return c.redirect(pending.back, 302);
  };

  app.post('/signout', async (c) => {
    // A form on another site may not sign anyone out (its post carries no session cookie, but its answer would clear it).
    if (!fromThisSite(c.req.raw.headers, c.req.url)) return problem(c, 403, 'Not signed out', 'Signing out is a form of this site; another site cannot post it.');
    const id = cookieValue(c.req.header('cookie'), SESSION_COOKIE);
    if (id !== undefined) await deleteSession(c.env.OAUTH_KV, id);
    c.header('Set-Cookie', sessionCookie(undefined, Date.now()));
    c.header('Cache-Control', 'no-store');
    return c.redirect('/view', 303);
  });

  for (const [path, methods] of [['/authorize', 'GET, POST'], ['/signin', 'GET'], ['/oauth/callback', 'GET'], ['/signout', 'POST']] as const) {
    app.all(path, (c) => {
      c.header('Allow', methods);
      return problem(c, 405, 'Method not allowed', `${c.req.method} is not allowed here; use ${methods}.`);
    });
  }
  return app;
}

async function challengeOf(verifier: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** Where a form may send the browser next: the client's redirect URI's origin (a private-use scheme as itself). */
function redirectOrigin(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? `${url.protocol}` : url.origin;
}

function readPending(cookie: string | undefined): { state: string; verifier: string; back: string } | undefined {
  if (!cookie) return undefined;
  try {
    const value = JSON.parse(atob(cookie.replace(/-/g, '+').replace(/_/g, '/'))) as { state?: unknown; verifier?: unknown; back?: unknown };
    if (typeof value.state !== 'string' || typeof value.verifier !== 'string' || typeof value.back !== 'string' || !RETURN_PATH.test(value.back)) return undefined;
    return { state: value.state, verifier: value.verifier, back: value.back };
  } catch {
    return undefined;
  }
}
