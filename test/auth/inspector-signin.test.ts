/**
 * The inspector's "Sign in with GitHub" through the real Worker and the GitHub API test server:
 * the session cookie's attributes, what a signed-in person sees (their tasks and the
 * installation's on repositories they can read), signing out, a cookie that names no session, a
 * return path that would leave the site, and a session GitHub will no longer renew.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { installationTenant } from '../e2e/support-checks.ts';
import { installationTaskOn, listedFor } from './support.ts';
import { createGitHubUser, githubFixture, revokeGitHubUser } from '../support/github-api-client.ts';
import { browser, OAUTH_ORIGIN, route } from '../support/oauth-browser.ts';
import { signedInPerson } from '../support/person.ts';

const widgets = () => `${githubFixture().owner}/${githubFixture().repo}`;

describe("the inspector's sign-in with GitHub", () => {
  it('sets a __Host- session cookie that is HttpOnly, Secure and SameSite=Lax, and returns to the page it started from', async () => {
    const reader = await signedInPerson({ [widgets()]: 'read' }, { name: 'cookie' });
    const start = await route(`${OAUTH_ORIGIN}/signin?return=/view%3Fstatus%3Dready`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const toGitHub = new URL(start.headers.get('location') ?? '');
    expect(toGitHub.pathname).toMatch(/\/login\/oauth\/authorize$/);
    expect(toGitHub.searchParams.get('client_id')).toBe(githubFixture().appClientId);
    expect(toGitHub.searchParams.get('redirect_uri')).toBe(`${OAUTH_ORIGIN}/oauth/callback`);
    expect(toGitHub.searchParams.get('code_challenge_method')).toBe('S256');

    const person = browser(reader.login);
    const landed = await person.open(`${OAUTH_ORIGIN}/signin?return=/view%3Fstatus%3Dready`);
    expect(landed.url).toBe(`${OAUTH_ORIGIN}/view?status=ready`);
    expect(landed.response.status).toBe(200);
    expect(person.cookies('groundwork.test').get('__Host-groundwork-session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The callback's own answer: the session cookie with its attributes, the start cookie cleared.
    const lines = await signInRaw(reader.login);
    expect(lines.find((line) => line.startsWith('__Host-groundwork-session='))).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; Secure; SameSite=Lax$/);
    expect(lines.find((line) => line.startsWith('__Host-groundwork-signin='))).toMatch(/Max-Age=0/);
  });

  it("lists the person's tasks and the installation's on repositories they can read, opens them, and signs out", async () => {
    const reader = await signedInPerson({ [widgets()]: 'read' }, { name: 'viewer' });
    const own = await reader.api('POST', '/tasks', { repo: widgets(), request: 'Mine.' });
    const taskId = await installationTaskOn(githubFixture().repo);
    await listedFor(reader, widgets(), taskId, 60_000);
    const person = browser(reader.login);
    const list = await person.open(`${OAUTH_ORIGIN}/signin?return=/view%3Flimit%3D100`);
    const html = await list.response.text();
    expect(html).toContain(`Signed in as <strong>@${reader.login}</strong>`);
    expect(html).toContain(`href="/tasks/${String(own.json['id'])}/view"`);
    expect(html).toContain(`href="/tasks/${taskId}/view"`);
    expect(html).toContain(installationTenant());
    const page = await person.open(`${OAUTH_ORIGIN}/tasks/${taskId}/view`);
    expect(page.response.status).toBe(200);
    expect(await page.response.text()).toContain('Sign out');

    const sessionId = person.cookies('groundwork.test').get('__Host-groundwork-session') ?? '';
    // Another site's form cannot sign the person out, however its browser names where it came from.
    const foreignForms: Array<Record<string, string>> = [{ 'sec-fetch-site': 'cross-site', origin: 'null' }, { 'sec-fetch-site': 'same-site', origin: 'https://other.groundwork.test' }, { origin: 'https://attacker.example' }, { origin: 'null' }];
    for (const from of foreignForms) {
      const foreign = await route(`${OAUTH_ORIGIN}/signout`, { method: 'POST', redirect: 'manual', headers: { ...from, cookie: `__Host-groundwork-session=${sessionId}` } });
      expect(foreign.status, JSON.stringify(from)).toBe(403);
      expect(foreign.headers.getSetCookie()).toEqual([]);
    }
    const out = await person.submit(`${OAUTH_ORIGIN}/signout`, {});
    expect(out.url).toBe(`${OAUTH_ORIGIN}/view`);
    expect(out.response.status).toBe(401);
    expect(person.cookies('groundwork.test').has('__Host-groundwork-session')).toBe(false);
    const after = await out.response.text();
    expect(after).toContain('Sign in with GitHub');
    expect(after).toContain('href="/signin?return=%2Fview"');
    // The session itself is gone, not only the cookie: the old value opens nothing.
    const replayed = await route(`${OAUTH_ORIGIN}/view`, { headers: { cookie: `__Host-groundwork-session=${sessionId}` } });
    expect(replayed.status).toBe(401);
    // The installation's task is listed once its assembly starts: the ceiling only catches a hang on a loaded machine.
  }, 90_000);

  it('treats a cookie that names no session as no sign-in, and offers Sign in with GitHub beside the signed link', async () => {
    const forged = await route(`${OAUTH_ORIGIN}/view`, { headers: { cookie: `__Host-groundwork-session=${'A'.repeat(43)}` } });
    expect(forged.status).toBe(401);
    expect(await forged.text()).toContain('Sign in with GitHub');
    const taskId = await installationTaskOn(githubFixture().repo);
    const linked = await route(`${OAUTH_ORIGIN}/tasks/${taskId}/view?exp=1&sig=${'0'.repeat(64)}`);
    expect(linked.status).toBe(403);
    expect(await linked.text()).toContain('Sign in with GitHub');
    // Where OAuth is not offered (http://groundwork.test), there is no such link.
    const plain = await exports.default.fetch('http://groundwork.test/view');
    expect(plain.status).toBe(401);
    expect(await plain.text()).not.toContain('Sign in with GitHub');
  }, 90_000);

  it('returns only to a path on this site after signing in', async () => {
    for (const back of ['//attacker.example/x', 'https://attacker.example/', '/\\attacker.example', 'view']) {
      const res = await route(`${OAUTH_ORIGIN}/signin?return=${encodeURIComponent(back)}`, { redirect: 'manual' });
      expect(res.status, back).toBe(400);
      expect(res.headers.get('location'), back).toBeNull();
    }
  });

  it('ends the session when GitHub will not renew its token (the App revoked), and says so', async () => {
    // GitHub's tokens live 30 s here: every page renews the session's first (a minute before it lapses).
    const reader = await createGitHubUser({ login: `lapsed-${crypto.randomUUID().slice(0, 8)}`, access: { [widgets()]: 'read' }, tokenTtlSeconds: 30 });
    const person = browser(reader.login);
    expect((await person.open(`${OAUTH_ORIGIN}/signin?return=/view`)).response.status).toBe(200);
    expect((await person.open(`${OAUTH_ORIGIN}/view`)).response.status).toBe(200);
    await revokeGitHubUser(reader.login);
    const sessionId = person.cookies('groundwork.test').get('__Host-groundwork-session') ?? '';
    const next = await person.open(`${OAUTH_ORIGIN}/view`);
    expect(next.response.status).toBe(401);
    expect(await next.response.text()).toContain('Sign in with GitHub');
    expect(person.cookies('groundwork.test').has('__Host-groundwork-session')).toBe(false);
    const replayed = await route(`${OAUTH_ORIGIN}/view`, { headers: { cookie: `__Host-groundwork-session=${sessionId}` } });
    expect(replayed.status).toBe(401);
  });
});

/** A whole sign-in by hand, answering the callback's Set-Cookie lines. */
async function signInRaw(login: string): Promise<string[]> {
  const start = await route(`${OAUTH_ORIGIN}/signin?return=/view`, { redirect: 'manual' });
  const startCookie = (start.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const github = await route(start.headers.get('location') ?? '', { redirect: 'manual', headers: { cookie: `github_session=${login}` } });
  const callback = await route(github.headers.get('location') ?? '', { redirect: 'manual', headers: { cookie: startCookie } });
  expect(callback.status).toBe(302);
  return callback.headers.getSetCookie();
}
