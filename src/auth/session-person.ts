/**
 * @module auth/session-person
 * The person a page request's session cookie names (auth/session), with a GitHub user access
 * token that still works: one that has expired (or will within a minute) is renewed with its
 * refresh token and the session rewritten. A renewal GitHub refuses (the person revoked the App,
 * the refresh token lapsed) ends the session: they sign in again. One GitHub could not answer
 * leaves the session as it is; the access decision then says GitHub could not answer.
 */
import { getConfig } from '../env.ts';
import { refreshGitHubToken } from './github-user.ts';
import { personIdentity, type Identity } from './identity.ts';
import { cookieValue, deleteSession, readSession, saveSession, SESSION_COOKIE, type Session } from './session.ts';

const RENEW_BEFORE_MS = 60_000;

export type SessionPerson = { identity: Identity; session: Session } | { identity?: undefined; ended: boolean };

export async function sessionPerson(env: Env, cookieHeader: string | undefined, now: number): Promise<SessionPerson> {
  const id = cookieValue(cookieHeader, SESSION_COOKIE);
  if (id === undefined) return { ended: false };
  const session = await readSession(env.OAUTH_KV, id, now);
  if (!session) return { ended: true };
  const github = session.person.github;
  if (github.expiresAt === undefined || github.expiresAt - now > RENEW_BEFORE_MS) return { identity: personIdentity(session.person), session };
  const config = getConfig(env);
  if (github.refreshToken === undefined || config.GITHUB_APP_CLIENT_ID === undefined || config.GITHUB_APP_CLIENT_SECRET === undefined) {
    await deleteSession(env.OAUTH_KV, id);
    return { ended: true };
  }
  const renewed = await refreshGitHubToken(
    { clientId: config.GITHUB_APP_CLIENT_ID, clientSecret: config.GITHUB_APP_CLIENT_SECRET, apiUrl: config.GITHUB_API_URL, fetch: (input, init) => fetch(input, init), now: () => now },
    github.refreshToken,
  );
  if (!renewed.ok && renewed.kind === 'refused') {
    await deleteSession(env.OAUTH_KV, id);
    return { ended: true };
  }
  if (!renewed.ok) return { identity: personIdentity(session.person), session };
  const updated: Session = { ...session, person: { ...session.person, github: renewed.value } };
  await saveSession(env.OAUTH_KV, updated, now);
  return { identity: personIdentity(updated.person), session: updated };
}
