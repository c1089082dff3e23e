/**
 * The red-team cases of docs/security.md for tokens, against the real Worker and the GitHub API
 * test server: an expired access token, a revoked one, one issued for the other resource, an
 * authorization code replayed, a redirect URI the client did not register, PKCE missing, a sign-in
 * GitHub no longer renews, and the API tokens of machine hosts beside all of it.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { expireGitHubTokens, githubFixture, revokeGitHubUser } from '../support/github-api-client.ts';
import { browser, formField, OAUTH_ORIGIN, route } from '../support/oauth-browser.ts';
import { authorizeInBrowser, CLIENT_REDIRECT, MemoryOAuthClient, signIn } from '../support/oauth-client.ts';
import { signedInPerson } from '../support/person.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import { createGitHubUser } from '../support/github-api-client.ts';

const widgets = () => `${githubFixture().owner}/${githubFixture().repo}`;
const MCP = `${OAUTH_ORIGIN}/mcp`;
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

const callMcp = (token: string) =>
  route(MCP, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: PING });
const callApi = (token: string) => route(`${OAUTH_ORIGIN}/tasks?limit=1`, { headers: { authorization: `Bearer ${token}` } });

/** A registered public client, PKCE material, and the authorization URL it would send a person to. */
async function registeredClient(): Promise<{ clientId: string; verifier: string; challenge: string; authorize: (params?: Record<string, string | null>) => string }> {
  const registered = await route(`${OAUTH_ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'red team', redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = await registered.json<{ client_id: string }>();
  const verifier = 'v'.repeat(20) + crypto.randomUUID();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const challenge = btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const authorize = (params: Record<string, string | null> = {}) => {
    const url = new URL(`${OAUTH_ORIGIN}/authorize`);
    const all: Record<string, string | null> = { response_type: 'code', client_id: clientId, redirect_uri: CLIENT_REDIRECT, state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256', resource: MCP, ...params };
    for (const [name, value] of Object.entries(all)) if (value !== null) url.searchParams.set(name, value);
    return url.toString();
  };
  return { clientId, verifier, challenge, authorize };
}

/** `recall` on `repo` over /mcp as the client's person: GitHub is asked whether they can read it. */
async function recallAs(client: MemoryOAuthClient, repo: string): Promise<CallToolResult> {
  const mcp = new Client({ name: 'red-team', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(MCP), { authProvider: client, fetch: (url, init) => route(String(url), init) }));
  try {
    return (await mcp.callTool({ name: 'recall', arguments: { repo } })) as CallToolResult;
  } finally {
    await mcp.close();
  }
}

const exchange = (clientId: string, code: string, verifier: string) =>
  route(`${OAUTH_ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CLIENT_REDIRECT, client_id: clientId, code_verifier: verifier, resource: MCP }).toString(),
  });

describe('tokens, as an attacker would try them', () => {
  it('refuses an expired access token with 401 invalid_token and the challenge, while a fresh one works', async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'expiring' });
    expect((await callMcp(person.token)).status).toBe(200);
    // Its record's expiry moved into the past: what an hour's wait does, without the wait.
    const [userId, grantId] = person.token.split(':');
    const { keys } = await env.OAUTH_KV.list({ prefix: `token:${userId}:${grantId}:` });
    expect(keys.length).toBeGreaterThan(0);
    for (const { name } of keys) {
      const record = await env.OAUTH_KV.get<Record<string, unknown>>(name, 'json');
      await env.OAUTH_KV.put(name, JSON.stringify({ ...record, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    }
    const refused = await callMcp(person.token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token".*resource_metadata=|resource_metadata=.*error="invalid_token"/);
  });

  it('refuses a token its client revoked (RFC 7009)', async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'revoking' });
    const revoked = await route(`${OAUTH_ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: person.token, client_id: String(person.client.information?.client_id) }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await callMcp(person.token)).status).toBe(401);
  });

  it('refuses a token issued for the other resource: /mcp tokens at the REST API and REST tokens at /mcp', async () => {
    const forMcp = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'audience' });
    const forApi = await signedInPerson({ [widgets()]: 'read' }, { resource: 'api', name: 'audience' });
    expect((await callMcp(forMcp.token)).status).toBe(200);
    expect((await callApi(forApi.token)).status).toBe(200);
    const wrongApi = await callApi(forMcp.token);
    expect(wrongApi.status).toBe(401);
    expect(await wrongApi.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await callMcp(forApi.token)).status).toBe(401);
  });

  it('exchanges an authorization code once: replayed, it is invalid_grant', async () => {
    const login = `replay-${crypto.randomUUID().slice(0, 8)}`;
    await createGitHubUser({ login, access: { [widgets()]: 'read' } });
    const client = await registeredClient();
    const code = await authorizeInBrowser(new URL(client.authorize()), login);
    const first = await exchange(client.clientId, code, client.verifier);
    expect(first.status).toBe(200);
    const replayed = await exchange(client.clientId, code, client.verifier);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('sends nobody to a redirect URI the client did not register: a page, no redirect, no code', async () => {
    const client = await registeredClient();
    const person = browser('anyone');
    const { response, url } = await person.open(client.authorize({ redirect_uri: 'https://attacker.example/callback' }));
    expect(response.status).toBe(400);
    expect(url).toMatch(new RegExp(`^${OAUTH_ORIGIN}/authorize`));
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(/not valid/);
  });

  it('refuses an authorization without PKCE before any consent or GitHub: back to the client with invalid_request', async () => {
    const client = await registeredClient();
    const { response, url } = await browser('anyone').open(client.authorize({ code_challenge: null, code_challenge_method: null }), { stopAt: CLIENT_REDIRECT });
    expect(response.status).toBe(302);
    const back = new URL(url);
    expect(back.origin + back.pathname).toBe(CLIENT_REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('state')).toBe('st-1');
  });

  it('sends a person who denies back to the client with access_denied, without visiting GitHub', async () => {
    const client = await registeredClient();
    const person = browser('anyone');
    const consent = await person.open(client.authorize());
    const html = await consent.response.text();
    expect(html).toContain('red team');
    expect(html).toContain('127.0.0.1');
    expect(html).toContain('an app on your own computer');
    const { url } = await person.submit(`${OAUTH_ORIGIN}/authorize`, { handle: formField(html, 'handle'), decision: 'deny' }, { stopAt: CLIENT_REDIRECT });
    expect(new URL(url).searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a consent posted from another browser (the handle is bound to the one that opened it)', async () => {
    const client = await registeredClient();
    const html = await (await browser('anyone').open(client.authorize())).response.text();
    const stranger = await browser('anyone').submit(`${OAUTH_ORIGIN}/authorize`, { handle: formField(html, 'handle'), decision: 'approve' });
    expect(stranger.response.status).toBe(400);
    expect(stranger.url).toBe(`${OAUTH_ORIGIN}/authorize`);
  });

  it("renews GitHub's short-lived token on refresh, and ends the grant when GitHub refuses the renewal (the App revoked)", async () => {
    const repo = `${githubFixture().owner}/renew-${crypto.randomUUID().slice(0, 8)}`;
    const login = `renewing-${crypto.randomUUID().slice(0, 8)}`;
    // GitHub's token lives 15 minutes: every refresh of ours renews it first.
    await createGitHubUser({ login, access: { [repo]: 'read' }, tokenTtlSeconds: 900 });
    const { client } = await signIn(login, MCP, new MemoryOAuthClient());
    // GitHub's token runs out: what our token carries can no longer be asked of GitHub.
    await expireGitHubTokens(login);
    const stale = await recallAs(client, repo);
    expect(stale.isError).toBe(true);
    expect(JSON.stringify(stale.content)).toMatch(/sign in again/);
    // Our refresh renews it with GitHub's refresh token, and the new one answers (a refusal is never kept).
    expect(await auth(client, { serverUrl: MCP, fetchFn: route })).toBe('AUTHORIZED');
    const recalled = await recallAs(client, repo);
    expect(recalled.isError, JSON.stringify(recalled.content)).toBeFalsy();
    await revokeGitHubUser(login);
    const before = client.saved?.access_token ?? '';
    await expect(auth(client, { serverUrl: MCP, fetchFn: route })).rejects.toThrow();
    expect((await callMcp(before)).status).toBe(401);
  });

  it('refuses a page on another origin before looking at its token: a valid one and a forged one get the same 403', async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'rebinding' });
    const fromPage = (token: string) =>
      route(MCP, { method: 'POST', headers: { origin: 'https://attacker.example', authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: PING });
    const [valid, forged] = await Promise.all([fromPage(person.token), fromPage(`${person.token.slice(0, -4)}AAAA`)]);
    expect([valid.status, forged.status]).toEqual([403, 403]);
  });

  it('keeps API tokens working beside OAuth, at the same origin, without the provider', async () => {
    expect((await callMcp(TEST_API_TOKENS.acme)).status).toBe(200);
    expect((await callApi(TEST_API_TOKENS.acme)).status).toBe(200);
    const wrong = await callMcp('not-a-token-of-anyone-0123456789');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});
