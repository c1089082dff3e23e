import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appInstallationAuth, createGitHubSource, forgetInstallationTokens } from '../../src/sources/github/index.ts';
import type { AppInstallationAuthOptions } from '../../src/sources/github/index.ts';
import { createTokenCache, tokenStoreKey } from '../../src/sources/github/token-cache.ts';
import type { KeyValueStore } from '../../src/sources/key-value-store.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import type { ApiScope } from '../support/github-api-client.ts';

const fx = githubFixture();
const TASKS = 20;

/** One task as a fresh isolate runs it: a new auth, new Octokit and empty memory; only the store is shared. */
async function coldTask(scope: ApiScope, store: KeyValueStore | undefined, overrides: Partial<AppInstallationAuthOptions> = {}) {
  const auth = appInstallationAuth({
    issuer: fx.appId,
    privateKey: fx.keyPkcs1,
    installationId: fx.installationId,
    memory: new Map(),
    ...(store ? { tokenStore: store } : {}),
    ...overrides,
  });
  const source = createGitHubSource({ owner: fx.owner, repo: fx.repo, auth, baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
  return source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: 1024 });
}

describe('installation tokens shared across isolates through KV', () => {
  it(`mints one token for ${TASKS} cold tasks on one installation, where memory alone mints one per task`, async () => {
    const shared = createApiScope();
    for (let i = 0; i < TASKS; i++) expect(await coldTask(shared, env.TENANTS)).toMatchObject({ status: 'ok' });
    expect(await shared.count('/access_tokens')).toBe(1);

    const apart = createApiScope();
    for (let i = 0; i < TASKS; i++) expect(await coldTask(apart, undefined)).toMatchObject({ status: 'ok' });
    expect(await apart.count('/access_tokens')).toBe(TASKS);
  });

  it('stores the token sealed, under the installation, expiring five minutes before the token', async () => {
    const scope = createApiScope();
    const memory = new Map();
    await coldTask(scope, env.TENANTS, { memory });
    const [entry] = [...memory.values()];
    const [token = '', , expiresAt = ''] = entry?.value.split('|') ?? [];
    expect(token).toMatch(/^ghs_/);

    const key = await tokenStoreKey(`${scope.baseUrl} ${fx.appId}`, String(fx.installationId));
    expect(key).toMatch(/^installation-token:v1:4242:[0-9a-f]{32}$/);
    const stored = await env.TENANTS.get(key ?? '', 'text');
    expect(stored).toMatch(/^\{"v":1,"iv":"[^"]+","data":"[^"]+"\}$/);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4, 20));
    const listed = (await env.TENANTS.list({ prefix: key ?? '' })).keys[0];
    expect(Math.abs((listed?.expiration ?? 0) * 1000 - (Date.parse(expiresAt) - 5 * 60_000))).toBeLessThan(5_000);
  });

  it('does not use a stored token within five minutes of its expiry, as a stale KV read may return', async () => {
    const scope = createApiScope();
    // Stored an hour ago, by an isolate whose clock then said the token had 59 minutes left.
    const then = Date.now() - 55 * 60_000;
    const old = createTokenCache({ store: env.TENANTS, scope: `${scope.baseUrl} ${fx.appId}`, secret: fx.keyPkcs8, memory: new Map(), clock: () => then });
    await old.set(String(fx.installationId), `ghs_stale|${new Date(then).toISOString()}|${new Date(Date.now() + 4 * 60_000).toISOString()}|all||`);
    expect(await coldTask(scope, env.TENANTS, { privateKey: fx.keyPkcs8 })).toMatchObject({ status: 'ok' });
    expect(await scope.count('/access_tokens')).toBe(1);
    expect((await scope.stats()).requests.every((request) => request.status < 400)).toBe(true);
  });

  it('mints again after the installation forgot its tokens', async () => {
    const scope = createApiScope();
    await coldTask(scope, env.TENANTS);
    expect(await forgetInstallationTokens(env.TENANTS, fx.installationId)).toBeGreaterThanOrEqual(1);
    expect(await env.TENANTS.list({ prefix: `installation-token:v1:${fx.installationId}:` })).toMatchObject({ keys: [] });
    await coldTask(scope, env.TENANTS);
    expect(await scope.count('/access_tokens')).toBe(2);
  });
});

// Issue 56: the App's JWT is signed while the store is read, not after its miss, and once for the
// exchange (auth-app signed again for the exchange request itself). Counted: RSA signatures made
// while the store's read is held open by the test, and in all.
describe("the App's JWT beside the token store's read", () => {
  afterEach(() => vi.restoreAllMocks());

  it('is signed while the store has not answered, and that one signature serves the whole exchange', async () => {
    const scope = createApiScope();
    const sign = crypto.subtle.sign.bind(crypto.subtle);
    const signatures = vi.spyOn(crypto.subtle, 'sign').mockImplementation((algorithm, key, data) => sign(algorithm, key, data));
    const rsa = () => signatures.mock.calls.filter(([algorithm]) => (typeof algorithm === 'string' ? algorithm : algorithm.name) === 'RSASSA-PKCS1-v1_5').length;
    let answer = (): void => undefined;
    const held: KeyValueStore = {
      get: async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return null;
      },
      put: async () => undefined,
    };
    const task = coldTask(scope, held);
    await vi.waitFor(() => expect(rsa()).toBe(1));
    expect(await scope.count('/access_tokens')).toBe(0);
    answer();
    expect(await task).toMatchObject({ status: 'ok' });
    expect(rsa()).toBe(1);
    expect(await scope.count('/access_tokens')).toBe(1);
  });

  it('is not signed for a token the store holds', async () => {
    const scope = createApiScope();
    await coldTask(scope, env.TENANTS);
    const sign = crypto.subtle.sign.bind(crypto.subtle);
    const signatures = vi.spyOn(crypto.subtle, 'sign').mockImplementation((algorithm, key, data) => sign(algorithm, key, data));
    expect(await coldTask(scope, env.TENANTS)).toMatchObject({ status: 'ok' });
    expect(await scope.count('/access_tokens')).toBe(1);
    // Signed beside the read (it cannot know the answer yet); the exchange it was for never came.
    expect(signatures.mock.calls.length).toBeLessThanOrEqual(1);
  });
});

describe('what the token store will not hand out', () => {
  const value = `ghs_abc|${new Date().toISOString()}|${new Date(Date.now() + 3_600_000).toISOString()}|all||`;

  it('refuses a sealed value copied under another installation, or read with another App key', async () => {
    const store = new Map<string, string>();
    const kv: KeyValueStore = { get: async (key) => store.get(key) ?? null, put: async (key, text) => void store.set(key, text) };
    const cache = (secret: string) => createTokenCache({ store: kv, scope: 'https://api.github.test 1', secret, memory: new Map() });
    await cache(fx.keyPkcs8).set('4242', value);
    expect(await cache(fx.keyPkcs8).get('4242')).toBe(value);
    expect(await cache('another App key').get('4242')).toBe('');

    const theirs = await tokenStoreKey('https://api.github.test 1', '7');
    const ours = await tokenStoreKey('https://api.github.test 1', '4242');
    store.set(theirs ?? '', store.get(ours ?? '') ?? '');
    expect(await cache(fx.keyPkcs8).get('7')).toBe('');
  });

  it('keeps a token whose expiry it cannot read nowhere, and one too short-lived for KV in memory only', async () => {
    const puts: string[] = [];
    const kv: KeyValueStore = { get: async () => null, put: async (key) => void puts.push(key) };
    const memory = new Map();
    const cache = createTokenCache({ store: kv, scope: 's', secret: 'k', memory });
    await cache.set('1', 'ghs_x|now|not a date|all||');
    expect(await cache.get('1')).toBe('');
    await cache.set('2', `ghs_y|now|${new Date(Date.now() + 5 * 60_000 + 30_000).toISOString()}|all||`);
    expect(await cache.get('2')).toMatch(/^ghs_y\|/);
    expect(puts).toEqual([]);
  });
});
