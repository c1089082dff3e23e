/**
 * The authorization server in a Worker of its own (src/auth-worker.ts, the `groundwork-auth`
 * auxiliary Worker of vitest.config.ts) behind the main Worker's AUTH_SERVER Service Binding:
 * the main Worker forwards the authorization server's paths with their URLs unchanged, keeps the
 * resources' metadata, and asks the binding's `validateToken` about each person's token over RPC;
 * API tokens never reach it. Without the binding, or with one that does not answer, a person's
 * request is a 503 naming AUTH_SERVER, never a 500 and never an allow. A token issued by the
 * provider running in the main Worker, as it did before the split, stays valid after it.
 */
import { env, exports } from 'cloudflare:workers';
import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.ts';
import { app as inProcessAuthServer } from '../../src/routes/groups/auth.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { createGitHubUser } from '../support/github-api-client.ts';
import { githubWebRoot, OAUTH_ORIGIN, route } from '../support/oauth-browser.ts';
import { signInWith } from '../support/oauth-flow.ts';
import { signedInPerson } from '../support/person.ts';

const widgets = () => `${githubFixture().owner}/${githubFixture().repo}`;
const MCP = `${OAUTH_ORIGIN}/mcp`;
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const mcpInit = (token?: string): RequestInit => ({
  method: 'POST',
  headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: PING,
});

/** The main Worker's entry with `bindings` for AUTH_SERVER: none, or one of the test's. */
function mainWith(binding: Env['AUTH_SERVER'] | undefined) {
  const { AUTH_SERVER: _bound, ...rest } = env;
  const changed = binding === undefined ? (rest as Env) : { ...rest, AUTH_SERVER: binding };
  // An incoming request as the runtime hands it to the entry (its `cf` is the runtime's to fill).
  return (url: string, init?: RequestInit) => worker.fetch(new Request(url, init) as Parameters<typeof worker.fetch>[0], changed, createExecutionContext());
}

/** The real binding, but every call fails as a Service Binding does when the other Worker is unreachable. */
function unreachable(): Env['AUTH_SERVER'] {
  return new Proxy(env.AUTH_SERVER, {
    get(target, name, receiver) {
      if (name === 'fetch' || name === 'validateToken') return () => Promise.reject(new Error('Network connection lost.'));
      return Reflect.get(target, name, receiver);
    },
  });
}

async function envelopeOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe('the authorization server behind the AUTH_SERVER binding', () => {
  it("forwards the authorization server's paths with their URLs: the discovery document is the authorization Worker's, on this origin", async () => {
    const path = '/.well-known/oauth-authorization-server';
    const forwarded = await exports.default.fetch(`${OAUTH_ORIGIN}${path}`);
    expect(forwarded.status).toBe(200);
    const direct = await env.AUTH_SERVER.fetch(`${OAUTH_ORIGIN}${path}`);
    const document = await forwarded.json<Record<string, unknown>>();
    expect(document).toEqual(await direct.json());
    // The authorization Worker's mark, which told the forward it answered, does not reach the client.
    expect(direct.headers.get('x-groundwork-auth-worker')).toBe('1');
    expect(forwarded.headers.get('x-groundwork-auth-worker')).toBeNull();
    expect(document).toMatchObject({ issuer: OAUTH_ORIGIN, authorization_endpoint: `${OAUTH_ORIGIN}/authorize`, token_endpoint: `${OAUTH_ORIGIN}/oauth/token`, registration_endpoint: `${OAUTH_ORIGIN}/oauth/register` });
  });

  it('forwards a POST with its body (dynamic registration), and the client it made is the authorization Worker’s', async () => {
    const registered = await exports.default.fetch(`${OAUTH_ORIGIN}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'split forward', redirect_uris: ['http://127.0.0.1:43117/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = await registered.json<{ client_id: string }>();
    // The consent page, asked of the authorization Worker directly, knows the client.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('v'.repeat(43))));
    const challenge = btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:43117/callback', code_challenge: challenge, code_challenge_method: 'S256', resource: MCP, state: 's' });
    const consent = await env.AUTH_SERVER.fetch(`${OAUTH_ORIGIN}/authorize?${query}`);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('split forward');
  });

  it("serves each resource's metadata in the main Worker, naming this origin as the authorization server, without the binding too", async () => {
    for (const main of [(url: string) => exports.default.fetch(url), mainWith(undefined)]) {
      const metadata = await main(`${OAUTH_ORIGIN}/.well-known/oauth-protected-resource/mcp`);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource: MCP, authorization_servers: [OAUTH_ORIGIN] });
    }
  });

  it("validates a person's token through the binding's RPC: the person's grant for this resource, null for a token it never issued", async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'split-rpc' });
    const validated = await env.AUTH_SERVER.validateToken(MCP, person.token);
    expect(validated?.audience).toBe(MCP);
    expect(validated?.props.person.login).toBe(person.login);
    expect(await env.AUTH_SERVER.validateToken(MCP, `${person.token.split(':').slice(0, 2).join(':')}:not-the-secret`)).toBeNull();
    // And the main Worker lets the person in on its answer.
    expect((await exports.default.fetch(MCP, mcpInit(person.token))).status).toBe(200);
  });

  it('refuses a resource the authorization Worker does not serve (a PUBLIC_URL set differently), as an error, never a grant', async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'split-foreign' });
    // Settled with `then`: an RPC promise handed to `expect` is a stub whose every property read is another call.
    const outcome = await env.AUTH_SERVER.validateToken('http://elsewhere.test/mcp', person.token).then(
      () => 'granted',
      (error: unknown) => String(error),
    );
    expect(outcome).toMatch(/does not issue tokens for http:\/\/elsewhere\.test\/mcp/);
  });

  it('refuses a revoked token through the binding: the RPC answers null and the main Worker 401', async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'split-revoked' });
    expect(await env.AUTH_SERVER.validateToken(MCP, person.token)).not.toBeNull();
    const revoked = await exports.default.fetch(`${OAUTH_ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: person.token, client_id: String(person.client.information?.client_id) }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await env.AUTH_SERVER.validateToken(MCP, person.token)).toBeNull();
    const refused = await exports.default.fetch(MCP, mcpInit(person.token));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('keeps a token the provider issued in the main Worker (as before the split) valid: same issuer, same KV', async () => {
    const login = `split-before-${crypto.randomUUID().slice(0, 8)}`;
    await createGitHubUser({ login, access: { [widgets()]: 'read' } });
    // The pre-split main Worker served these paths itself, with this module, over the same OAUTH_KV.
    const authPaths = /^\/(authorize|signin|signout|oauth\/|\.well-known\/oauth-authorization-server)/;
    const before = (url: string | URL, init?: RequestInit): Promise<Response> => {
      const target = new URL(String(url));
      if (target.origin === OAUTH_ORIGIN && authPaths.test(target.pathname)) return Promise.resolve(inProcessAuthServer.fetch(new Request(target, init), env, createExecutionContext()));
      return route(target, init);
    };
    const issuedBefore = await before(`${OAUTH_ORIGIN}/.well-known/oauth-authorization-server`);
    expect(await issuedBefore.json()).toEqual(await (await exports.default.fetch(`${OAUTH_ORIGIN}/.well-known/oauth-authorization-server`)).json());
    const { tokens } = await signInWith({ send: before, origin: OAUTH_ORIGIN, githubWebRoot: githubWebRoot() }, login, MCP);
    expect((await exports.default.fetch(MCP, mcpInit(tokens.access_token))).status).toBe(200);
  });
});

describe('without the AUTH_SERVER binding, or with one that does not answer', () => {
  it("answers a person's request 503 naming AUTH_SERVER, never a 500 and never an allow", async () => {
    const person = await signedInPerson({ [widgets()]: 'read' }, { resource: 'mcp', name: 'split-missing' });
    for (const [label, main] of [['missing', mainWith(undefined)], ['unreachable', mainWith(unreachable())]] as const) {
      for (const [url, init] of [
        [MCP, mcpInit(person.token)],
        ...(label === 'missing' ? [[MCP, mcpInit()] as const] : []),
        [`${OAUTH_ORIGIN}/tasks?limit=1`, { headers: { authorization: `Bearer ${person.token}` } }],
        [`${OAUTH_ORIGIN}/authorize?client_id=x`, {}],
        [`${OAUTH_ORIGIN}/oauth/token`, { method: 'POST', body: 'grant_type=refresh_token' }],
        [`${OAUTH_ORIGIN}/.well-known/oauth-authorization-server`, {}],
      ] as const) {
        const response = await main(url, init);
        expect(response.status, `${label}: ${url}`).toBe(503);
        const error = await envelopeOf(response);
        expect(error.code, `${label}: ${url}`).toBe('not_configured');
        expect(error.message, `${label}: ${url}`).toContain('AUTH_SERVER');
      }
    }
  });

  it('answers 503 naming AUTH_SERVER when something else answers for the binding (wrangler dev without the authorization Worker)', async () => {
    const impostor = new Proxy(env.AUTH_SERVER, {
      get(target, name, receiver) {
        if (name === 'fetch') return () => Promise.resolve(new Response('Worker "groundwork-auth" not found. Make sure it is running locally.', { status: 503 }));
        return Reflect.get(target, name, receiver);
      },
    });
    const response = await mainWith(impostor)(`${OAUTH_ORIGIN}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(503);
    const error = await envelopeOf(response);
    expect(error.code).toBe('not_configured');
    expect(error.message).toMatch(/AUTH_SERVER.*answered 503 without being groundwork-auth \(Worker .groundwork-auth. not found/);
  });

  it('challenges a request without a token 401 when the binding is there but unreachable: nothing was asked of it, and the client’s discovery then gets the 503', async () => {
    const main = mainWith(unreachable());
    const challenged = await main(MCP, mcpInit());
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get('www-authenticate')).toContain(`resource_metadata="${OAUTH_ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expect((await main(`${OAUTH_ORIGIN}/.well-known/oauth-authorization-server`)).status).toBe(503);
  });

  it('still serves API tokens (checked in the main Worker, no RPC), and answers 404 where this origin offers no OAuth', async () => {
    for (const main of [mainWith(undefined), mainWith(unreachable())]) {
      const listed = await main(`${OAUTH_ORIGIN}/tasks?limit=1`, { headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}` } });
      expect(listed.status).toBe(200);
      const mcp = await main(MCP, mcpInit(TEST_API_TOKENS.acme));
      expect(mcp.status).toBe(200);
    }
    const plain = await mainWith(undefined)('http://groundwork.test/authorize');
    expect(plain.status).toBe(404);
    expect((await envelopeOf(plain)).message).toMatch(/^no OAuth here/);
  });
});
