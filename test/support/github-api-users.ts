/**
 * @module test/support/github-api-users
 * The people of the local GitHub API server and GitHub's user authorization for the fixture's
 * GitHub App, as GitHub documents them (docs.github.com "Generating a user access token for a
 * GitHub App", "Refreshing user access tokens", REST "Get a repository" and "List app
 * installations accessible to the user access token", read 2026-12):
 *
 * - `GET /login/oauth/authorize` plays GitHub's page: the browser is signed in to GitHub as the
 *   user its `github_session` cookie names (a test sets it, as a person is signed in to GitHub),
 *   and GitHub sends it back to `redirect_uri` with a one-time `code` and the `state`; without the
 *   cookie it answers GitHub's sign-in page.
 * - `POST /login/oauth/access_token` exchanges a code (client secret, redirect URI and the PKCE
 *   verifier checked) or a refresh token for a user access token (`ghu_`, 8 hours by default) and
 *   a refresh token (`ghr_`, 6 months); a refresh token works once and retires the pair it came
 *   with. Failures are 200s with `error`, as GitHub answers them.
 * - `GET /user`, `GET /repos/{owner}/{repo}` (with `permissions` for the token's user) and
 *   `GET /user/installations` answer the user access token; a repository the user cannot read is
 *   a 404, as GitHub answers it.
 *
 * Each test makes its own people (`POST /__github/users`) so that tests running in parallel never
 * share one, changes what they may do (`POST /__github/users/<login>/access`), revokes their
 * authorization of the App (`POST /__github/users/<login>/revoke`) and makes GitHub fail the next
 * reads made with their token (`POST /__github/users/<login>/fail`: `{ status, times }`) or lets
 * their access tokens run out now, refresh tokens kept (`POST /__github/users/<login>/expire`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Answer } from './github-api-scope.ts';

export const PermissionSchema = z.enum(['none', 'read', 'write', 'admin']);
export type Permission = z.infer<typeof PermissionSchema>;

export const NewUserSchema = z.object({
  login: z.string().regex(/^[A-Za-z0-9-]{1,39}$/),
  /** `owner/name` (as GitHub spells it) -> what the user may do there. */
  access: z.record(z.string(), PermissionSchema).default({}),
  /** Seconds a user access token lives; GitHub's is 8 hours. */
  tokenTtlSeconds: z.number().int().positive().optional(),
});
export type NewUser = z.input<typeof NewUserSchema>;

export interface UsersOptions {
  appClientId: string;
  appClientSecret: string;
  installationId: number;
  /** The account the App is installed on: its installation covers every repository of it. */
  installationAccount: string;
}

type RequestHeaders = Record<string, string | string[] | undefined>;

interface User {
  id: number;
  login: string;
  access: Map<string, Permission>;
  tokenTtlSeconds: number;
  /** The next `times` reads with this user's token answer `status`. */
  failing: { status: number; times: number };
}

interface PendingCode {
  user: User;
  redirectUri: string;
  challenge: string | undefined;
  expiresAt: number;
}

const USER_TOKEN_TTL_SECONDS = 8 * 3600;
const REFRESH_TTL_SECONDS = 15_897_600;
const notFound: Answer = { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
const badCredentials: Answer = { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } };

export interface UsersApi {
  /** Answers the OAuth and user routes (`path` without the scope prefix), or undefined for any other. */
  answer(request: { method: string; path: string; url: URL; headers: RequestHeaders; body: string }): Answer | undefined;
  create(user: NewUser): { id: number; login: string };
  setAccess(login: string, access: Record<string, Permission>): boolean;
  revoke(login: string): boolean;
  fail(login: string, failing: { status: number; times: number }): boolean;
  expire(login: string): boolean;
}

export const FailSchema = z.object({ status: z.number().int().min(400).max(599), times: z.number().int().positive() });

export function usersApi(options: UsersOptions): UsersApi {
  const users = new Map<string, User>();
  let nextId = 9_000_001;
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, { user: User; expiresAt: number }>();
  const refreshTokens = new Map<string, { user: User; access: string; expiresAt: number }>();

  const mint = (user: User) => {
    const access = `ghu_${randomBytes(18).toString('hex')}`;
    const refresh = `ghr_${randomBytes(30).toString('hex')}`;
    accessTokens.set(access, { user, expiresAt: Date.now() + user.tokenTtlSeconds * 1000 });
    refreshTokens.set(refresh, { user, access, expiresAt: Date.now() + REFRESH_TTL_SECONDS * 1000 });
    return { access_token: access, expires_in: user.tokenTtlSeconds, refresh_token: refresh, refresh_token_expires_in: REFRESH_TTL_SECONDS, token_type: 'bearer', scope: '' };
  };
  const oauthError = (error: string, description: string): Answer => ({ status: 200, body: { error, error_description: description, error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors' } });
  const tokenUser = (headers: RequestHeaders): User | undefined => {
    const header = headers['authorization'];
    const token = /^(?:bearer|token) (\S+)$/i.exec(typeof header === 'string' ? header : '')?.[1];
    const held = token === undefined ? undefined : accessTokens.get(token);
    return held && held.expiresAt > Date.now() ? held.user : undefined;
  };
  const permissionOn = (user: User, fullName: string): Permission => user.access.get(fullName.toLowerCase()) ?? 'none';
  /** A scripted failure of this user's next read, if one is left. */
  const failure = (user: User): Answer | undefined => {
    if (user.failing.times <= 0) return undefined;
    user.failing.times--;
    return { status: user.failing.status, body: { message: `injected ${user.failing.status}` } };
  };

  const authorize = (url: URL, headers: RequestHeaders): Answer => {
    const query = url.searchParams;
    if (query.get('client_id') !== options.appClientId) return { status: 404, body: 'Not Found' };
    const redirectUri = query.get('redirect_uri') ?? '';
    // The App's callback URL: GitHub sends nobody anywhere else.
    if (!URL.canParse(redirectUri) || new URL(redirectUri).pathname !== '/oauth/callback') return { status: 200, body: 'The redirect_uri is not associated with this application.' };
    const cookie = typeof headers['cookie'] === 'string' ? headers['cookie'] : '';
    const login = /(?:^|;\s*)github_session=([A-Za-z0-9-]+)/.exec(cookie)?.[1];
    const user = login === undefined ? undefined : users.get(login.toLowerCase());
    if (!user) return { status: 200, body: 'Sign in to GitHub to continue to the app' };
    const method = query.get('code_challenge_method');
    if (query.has('code_challenge') && method !== 'S256') return { status: 200, body: 'Only the S256 code challenge method is accepted' };
    const code = randomBytes(10).toString('hex');
    codes.set(code, { user, redirectUri, challenge: query.get('code_challenge') ?? undefined, expiresAt: Date.now() + 600_000 });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    if (query.has('state')) back.searchParams.set('state', query.get('state') ?? '');
    return { status: 302, body: '', headers: { location: back.toString() } };
  };

  const accessToken = (body: string, contentType: string): Answer => {
    const form = contentType.includes('json') ? new URLSearchParams(Object.entries(z.record(z.string(), z.string()).parse(JSON.parse(body)))) : new URLSearchParams(body);
    if (form.get('client_id') !== options.appClientId || form.get('client_secret') !== options.appClientSecret) return oauthError('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
    if (form.get('grant_type') === 'refresh_token') {
      const held = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!held || held.expiresAt <= Date.now()) return oauthError('bad_refresh_token', 'The refresh token passed is incorrect or expired.');
      refreshTokens.delete(form.get('refresh_token') ?? '');
      accessTokens.delete(held.access);
      return { status: 200, body: mint(held.user) };
    }
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code);
    if (!pending || pending.expiresAt <= Date.now()) return oauthError('bad_verification_code', 'The code passed is incorrect or expired.');
    if (form.has('redirect_uri') && form.get('redirect_uri') !== pending.redirectUri) return oauthError('redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.');
    if (pending.challenge !== undefined) {
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) return oauthError('bad_verification_code', 'The code_verifier does not match the code_challenge.');
    }
    return { status: 200, body: mint(pending.user) };
  };

  const repository = (user: User | undefined, owner: string, name: string): Answer => {
    if (!user) return badCredentials;
    const fullName = `${owner}/${name}`;
    const permission = permissionOn(user, fullName);
    if (permission === 'none' || owner.toLowerCase() !== options.installationAccount.toLowerCase()) return notFound;
    const at = (level: Permission) => ['read', 'write', 'admin'].indexOf(permission) >= ['read', 'write', 'admin'].indexOf(level);
    return {
      status: 200,
      body: {
        id: Number.parseInt(createHash('sha256').update(fullName.toLowerCase()).digest('hex').slice(0, 8), 16),
        name,
        full_name: fullName,
        private: true,
        owner: { login: owner },
        permissions: { admin: at('admin'), maintain: at('admin'), push: at('write'), triage: at('write'), pull: at('read') },
      },
    };
  };

  return {
    answer({ method, path, url, headers, body }) {
      if (path === '/login/oauth/authorize' && method === 'GET') return authorize(url, headers);
      if (path === '/login/oauth/access_token' && method === 'POST') return accessToken(body, String(headers['content-type'] ?? ''));
      if (path === '/user' && method === 'GET') {
        const user = tokenUser(headers);
        return user ? { status: 200, body: { id: user.id, login: user.login, type: 'User', name: null } } : badCredentials;
      }
      if (path === '/user/installations' && method === 'GET') {
        const user = tokenUser(headers);
        if (!user) return badCredentials;
        const failed = failure(user);
        if (failed) return failed;
        const account = options.installationAccount.toLowerCase();
        const covered = [...user.access].some(([fullName, permission]) => permission !== 'none' && fullName.startsWith(`${account}/`));
        const installations = covered ? [{ id: options.installationId, account: { login: options.installationAccount, type: 'Organization' }, repository_selection: 'all' }] : [];
        return { status: 200, body: { total_count: installations.length, installations } };
      }
      const repo = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path);
      // Installation and personal tokens keep the repository routes' own answer (see github-api-repo).
      const reader = tokenUser(headers);
      if (repo && method === 'GET' && reader !== undefined) return failure(reader) ?? repository(reader, repo[1] ?? '', repo[2] ?? '');
      // A user access token GitHub no longer accepts (expired, revoked): bad credentials, as everywhere.
      if (repo && /^(?:bearer|token) ghu_/i.test(String(headers['authorization'] ?? ''))) return badCredentials;
      return undefined;
    },
    create(input) {
      const user = NewUserSchema.parse(input);
      const created: User = { id: nextId++, login: user.login, access: new Map(Object.entries(user.access).map(([name, level]) => [name.toLowerCase(), level])), tokenTtlSeconds: user.tokenTtlSeconds ?? USER_TOKEN_TTL_SECONDS, failing: { status: 200, times: 0 } };
      users.set(user.login.toLowerCase(), created);
      return { id: created.id, login: created.login };
    },
    setAccess(login, access) {
      const user = users.get(login.toLowerCase());
      if (!user) return false;
      for (const [name, level] of Object.entries(access)) user.access.set(name.toLowerCase(), level);
      return true;
    },
    fail(login, failing) {
      const user = users.get(login.toLowerCase());
      if (!user) return false;
      user.failing = { ...failing };
      return true;
    },
    expire(login) {
      const user = users.get(login.toLowerCase());
      if (!user) return false;
      for (const held of accessTokens.values()) if (held.user === user) held.expiresAt = Date.now();
      return true;
    },
    revoke(login) {
      const user = users.get(login.toLowerCase());
      if (!user) return false;
      for (const [token, held] of accessTokens) if (held.user === user) accessTokens.delete(token);
      for (const [token, held] of refreshTokens) if (held.user === user) refreshTokens.delete(token);
      return true;
    },
  };
}
