/**
 * @module auth/github-user
 * GitHub's side of a person's sign-in, through the deployment's GitHub App (no second app): the
 * web application flow with PKCE, the code exchange, refreshing an expiring user access token, and
 * the reads the access decisions make with it. Facts from GitHub's docs (read 2026-12):
 *
 * - `GET <web>/login/oauth/authorize` takes `client_id`, `redirect_uri`, `state` and, since
 *   2025-07, `code_challenge` with `code_challenge_method=S256` ("Generating a user access token
 *   for a GitHub App"; github.blog changelog 2025-07-14 "PKCE support for OAuth and GitHub App
 *   authentication").
 * - `POST <web>/login/oauth/access_token` with `Accept: application/json` exchanges the code (with
 *   `client_secret` and `code_verifier`) or a refresh token (`grant_type=refresh_token`); a failure
 *   is a 200 carrying `error` (`bad_verification_code`, `bad_refresh_token`, …). A user access token
 *   expires after 8 hours (`expires_in`) and its refresh token after 6 months; a refresh token
 *   works once ("Refreshing user access tokens").
 * - A user access token reaches only what both the user and the App's installation can reach
 *   ("Generating a user access token for a GitHub App", "About user access tokens").
 *
 * Every call has its own deadline. A failure is a value: `refused` when GitHub said no (a code or
 * refresh token it does not take, a token it no longer accepts), `unavailable` when it gave no
 * usable answer. The web root is derived from `GITHUB_API_URL` as repository links are
 * (`api.github.com` -> `github.com`, GHES `https://host/api/v3` -> `https://host`).
 */
import * as z from 'zod';
import { withDeadline } from '../lib/deadline.ts';
import { lazySchema } from '../lib/lazy-schema.ts';
import { githubWebRoot } from '../sources/github/location.ts';
import type { GitHubUserToken } from './identity.ts';

/** One call to GitHub, body read included. */
export const GITHUB_CALL_MS = 10_000;

export interface GitHubOAuthApp {
  clientId: string;
  clientSecret: string;
  /** `GITHUB_API_URL`. */
  apiUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

export type GitHubAnswer<T> = { ok: true; value: T } | { ok: false; kind: 'refused' | 'unavailable'; reason: string };

const TokenAnswerSchema = lazySchema(() => z.union([
  z.object({
    access_token: z.string().min(1),
    expires_in: z.number().int().positive().optional(),
    refresh_token: z.string().min(1).optional(),
    refresh_token_expires_in: z.number().int().positive().optional(),
  }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]));
const UserSchema = lazySchema(() => z.object({ id: z.number().int().positive(), login: z.string().min(1) }));

/** Where GitHub sends a person to authorize the App for this deployment. */
export function githubAuthorizeUrl(app: Pick<GitHubOAuthApp, 'clientId' | 'apiUrl'>, request: { redirectUri: string; state: string; codeChallenge: string }): string {
  const url = new URL(`${githubWebRoot(app.apiUrl)}/login/oauth/authorize`);
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  url.searchParams.set('code_challenge', request.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

export function exchangeGitHubCode(app: GitHubOAuthApp, code: { code: string; redirectUri: string; codeVerifier: string }): Promise<GitHubAnswer<GitHubUserToken>> {
  return tokenRequest(app, { code: code.code, redirect_uri: code.redirectUri, code_verifier: code.codeVerifier });
}

export function refreshGitHubToken(app: GitHubOAuthApp, refreshToken: string): Promise<GitHubAnswer<GitHubUserToken>> {
  return tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** `GET /user`: who the token belongs to. */
export async function githubUser(app: Pick<GitHubOAuthApp, 'apiUrl' | 'fetch'>, token: string): Promise<GitHubAnswer<{ id: number; login: string }>> {
  const answer = await githubGet(app, token, '/user');
  if (!answer.ok) return answer.kind === 'not-found' ? { ok: false, kind: 'unavailable', reason: answer.reason } : { ...answer, kind: answer.kind };
  const user = UserSchema.safeParse(answer.value);
  return user.success ? { ok: true, value: user.data } : { ok: false, kind: 'unavailable', reason: 'GitHub answered GET /user without a user id and login' };
}

/**
 * A GET of the REST API as the user, parsed JSON or why not: 401 is `refused` (GitHub no longer
 * accepts the token: it expired or the person revoked the App), 404 `not-found` (GitHub answers
 * that for what the user cannot see), anything else that is not a 200 is `unavailable`.
 */
export async function githubGet(app: Pick<GitHubOAuthApp, 'apiUrl' | 'fetch'>, token: string, path: string): Promise<GitHubAnswer<unknown> | { ok: false; kind: 'not-found'; reason: string }> {
  const url = `${app.apiUrl.replace(/\/+$/, '')}${path}`;
  try {
    return await withDeadline(GITHUB_CALL_MS, () => `GitHub did not answer GET ${path} within ${GITHUB_CALL_MS / 1000} s`, async (signal) => {
      const response = await app.fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'groundwork' },
        signal,
      });
      if (response.status === 401) {
        await response.body?.cancel();
        return { ok: false, kind: 'refused', reason: 'GitHub no longer accepts this sign-in (401): it expired or the App was revoked; sign in again' };
      }
      if (response.status === 404) {
        await response.body?.cancel();
        return { ok: false, kind: 'not-found', reason: `GitHub answered 404 for GET ${path}` };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        return { ok: false, kind: 'unavailable', reason: `GitHub answered ${response.status} for GET ${path}` };
      }
      return { ok: true, value: (await response.json()) as unknown };
    });
  } catch (error) {
    return { ok: false, kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function tokenRequest(app: GitHubOAuthApp, fields: Record<string, string>): Promise<GitHubAnswer<GitHubUserToken>> {
  const body = new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, ...fields });
  const url = `${githubWebRoot(app.apiUrl)}/login/oauth/access_token`;
  try {
    return await withDeadline(GITHUB_CALL_MS, () => `GitHub did not answer the token request within ${GITHUB_CALL_MS / 1000} s`, async (signal): Promise<GitHubAnswer<GitHubUserToken>> => {
      const response = await app.fetch(url, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'groundwork' }, body, signal });
      if (response.status !== 200) {
        await response.body?.cancel();
        return { ok: false, kind: 'unavailable', reason: `GitHub answered ${response.status} to the token request` };
      }
      const parsed = TokenAnswerSchema.safeParse(await response.json());
      if (!parsed.success) return { ok: false, kind: 'unavailable', reason: 'GitHub answered the token request without a token or an error' };
      const answer = parsed.data;
      if ('error' in answer) return { ok: false, kind: 'refused', reason: `GitHub refused the token request: ${answer.error}${answer.error_description ? ` (${answer.error_description})` : ''}` };
      const now = app.now();
      return {
        ok: true,
        value: {
          accessToken: answer.access_token,
          ...(answer.expires_in === undefined ? {} : { expiresAt: now + answer.expires_in * 1000 }),
          ...(answer.refresh_token === undefined ? {} : { refreshToken: answer.refresh_token }),
          ...(answer.refresh_token_expires_in === undefined ? {} : { refreshExpiresAt: now + answer.refresh_token_expires_in * 1000 }),
        },
      };
    });
  } catch (error) {
    return { ok: false, kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
  }
}
