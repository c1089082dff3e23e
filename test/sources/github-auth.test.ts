import { describe, expect, it, vi } from 'vitest';
import { appInstallationAuth, createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import type { AppInstallationAuthOptions, GitHubAuth } from '../../src/sources/github/index.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import type { ApiScope } from '../support/github-api-client.ts';

const fx = githubFixture();

function sourceFor(scope: ApiScope, auth: GitHubAuth) {
  return createGitHubSource({ owner: fx.owner, repo: fx.repo, auth, baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
}

function appAuth(overrides: Partial<AppInstallationAuthOptions> = {}): GitHubAuth {
  return appInstallationAuth({ issuer: fx.appId, privateKey: fx.keyPkcs8, installationId: fx.installationId, memory: new Map(), ...overrides });
}

async function foreignPkcs8Key(): Promise<string> {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  if (!('privateKey' in pair)) throw new Error('expected a key pair');
  const exported = await crypto.subtle.exportKey('pkcs8', pair.privateKey);
  if (!(exported instanceof ArrayBuffer)) throw new Error('expected DER bytes');
  const der = new Uint8Array(exported);
  const base64 = btoa(String.fromCharCode(...der)).replace(/.{64}/g, '$&\n');
  return `-----BEGIN PRIVATE KEY-----\n${base64}\n-----END PRIVATE KEY-----\n`;
}

describe('GitHub App installation tokens', () => {
  it('exchanges a signed app JWT for an installation token once and reuses it across snapshots', async () => {
    const scope = createApiScope();
    const source = sourceFor(scope, appAuth());
    expect(await source.resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    expect(await source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: 1024 })).toMatchObject({ status: 'ok' });
    expect(await source.snapshot(fx.commits.first).read('AGENTS.md', { maxBytes: 1024 })).toMatchObject({ status: 'ok' });
    expect(await scope.count('/access_tokens')).toBe(1);
  });

  it('shares one exchange among requests that start together', async () => {
    const scope = createApiScope();
    const source = sourceFor(scope, appAuth());
    const resolved = await Promise.all(['main', 'v1', 'main', 'v1'].map((ref) => source.resolve(ref)));
    expect(resolved.map((result) => result.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(await scope.count('/access_tokens')).toBe(1);
  });

  it('gives the shared token exchange its own deadline, so one that hangs does not hold every later request', async () => {
    const scope = createApiScope();
    await scope.configure({ faults: [{ status: 200, times: 1, match: '/access_tokens', stall: true }] });
    // No caller signal at all: only the exchange's own deadline can end the wait.
    const source = sourceFor(scope, appAuth({ exchangeTimeoutMs: 200 }));
    expect(await source.resolve('main')).toEqual({
      status: 'failed',
      ref: 'main',
      reason: `GitHub App installation token request to ${new URL(scope.baseUrl).host} got no answer within 200 ms (installation ${fx.installationId})`,
    });
    expect(await source.resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    expect(await scope.count('/access_tokens')).toBe(2);
  });

  it('renews the token five minutes before it expires', async () => {
    const scope = createApiScope();
    await scope.configure({ tokenTtlSeconds: 330 });
    let skew = 0;
    const auth = appAuth({ clock: () => Date.now() + skew });
    expect((await sourceFor(scope, auth).resolve('main')).status).toBe('ok');
    skew = 25_000;
    expect((await sourceFor(scope, auth).resolve('main')).status).toBe('ok');
    expect(await scope.count('/access_tokens')).toBe(1);
    skew = 31_000;
    expect((await sourceFor(scope, auth).resolve('main')).status).toBe('ok');
    expect(await scope.count('/access_tokens')).toBe(2);
  });

  it('retries a token exchange that hit a server error', async () => {
    const scope = createApiScope();
    await scope.configure({ faults: [{ status: 502, times: 1, match: '/access_tokens' }] });
    expect((await sourceFor(scope, appAuth()).resolve('main')).status).toBe('ok');
    expect(await scope.count('/access_tokens')).toBe(2);
  });

  it('takes the App Client ID as the JWT issuer', async () => {
    const scope = createApiScope();
    expect(await sourceFor(scope, appAuth({ issuer: fx.appClientId })).resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    expect(await scope.count('/access_tokens')).toBe(1);
  });

  it('mints a new token once when GitHub refuses a stored one, and the read succeeds', async () => {
    const scope = createApiScope();
    const memory = new Map();
    const auth = appAuth({ memory });
    expect((await sourceFor(scope, auth).resolve('main')).status).toBe('ok');
    // auth-app already retries a 401 on a token younger than five seconds; this one is older.
    for (const entry of memory.values()) entry.value = entry.value.replace(/\|[^|]+\|/, `|${new Date(Date.now() - 60_000).toISOString()}|`);
    await scope.revokeTokens();
    expect(await sourceFor(scope, auth).resolve('v1')).toMatchObject({ status: 'ok' });
    expect(await scope.count('/access_tokens')).toBe(2);
    expect((await scope.stats()).requests.map((request) => request.status)).toEqual([201, 200, 401, 201, 200]);
  });
});

describe('auth failures name their cause', () => {
  it('reports bad credentials when the app JWT is signed with another key', async () => {
    const scope = createApiScope();
    const result = await sourceFor(scope, appAuth({ privateKey: await foreignPkcs8Key() })).resolve('main');
    expect(result).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/installation 4242: bad credentials \(401\).*app JWT.*App ID or Client ID \(31337\)/),
      // A key GitHub rejects stays rejected: the task fails now rather than after every retry.
      permanent: true,
    });
    expect(await scope.count('/commits/')).toBe(0);
  });

  it('reports an installation that does not exist, for good', async () => {
    const source = sourceFor(createApiScope(), appAuth({ installationId: 999 }));
    expect(await source.snapshot(fx.commits.head).list('')).toMatchObject({ status: 'failed', reason: expect.stringContaining('installation 999 not found (404)'), permanent: true });
    expect(await source.resolve('main')).toMatchObject({ status: 'failed', reason: expect.stringContaining('installation 999 not found (404)'), permanent: true });
  });

  it('stops at the first token exchange when the installation is unknown, with nothing to fall back to', async () => {
    const scope = createApiScope();
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const plan = { dirs: [''], files: ['AGENTS.md'], walks: [] };
    const source = sourceFor(scope, appAuth({ installationId: 999 }));
    expect(await source.resolve('main', { plan })).toMatchObject({ status: 'failed', reason: expect.stringContaining('installation 999 not found (404)'), permanent: true });
    const snapshot = source.snapshot(fx.commits.head, { plan });
    const [listed, read] = await Promise.all([snapshot.list(''), snapshot.read('AGENTS.md', { maxBytes: 1024 })]);
    for (const result of [listed, read]) expect(result).toMatchObject({ status: 'failed', reason: expect.stringContaining('installation 999 not found (404)'), permanent: true });
    // One exchange for the read-ahead, none for REST reads that would only meet the same 404.
    expect((await scope.stats()).requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'POST /app/installations/999/access_tokens 404',
    ]);
    expect(warnings.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('fell back to REST'))).toEqual([]);
    warnings.mockRestore();
  });

  it('remembers a permanent refusal for a minute in the isolate, then asks again', async () => {
    const scope = createApiScope();
    let now = Date.now();
    const memory = new Map();
    // Two sources on one isolate's memory: two tasks of the same unknown installation.
    const first = sourceFor(scope, appAuth({ installationId: 999, memory, clock: () => now }));
    const second = sourceFor(scope, appAuth({ installationId: 999, memory, clock: () => now }));
    expect(await first.resolve('main')).toMatchObject({ status: 'failed', reason: expect.stringContaining('installation 999 not found (404)'), permanent: true });
    now += 20_000;
    expect(await second.resolve('main')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/installation 999 not found \(404\).*\(GitHub's answer 20 s ago; not asked again until 60 s after it\)/),
      permanent: true,
    });
    expect(await scope.count('/access_tokens')).toBe(1);
    // Another installation of the same App is asked as usual.
    expect(await sourceFor(scope, appAuth({ memory, clock: () => now })).resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    expect(await scope.count('/access_tokens')).toBe(2);
    now += 40_000;
    expect(await second.resolve('main')).toMatchObject({ status: 'failed', reason: expect.not.stringContaining('ago'), permanent: true });
    expect(await scope.count('/access_tokens')).toBe(3);
  });

  it('does not remember a token exchange that failed for a reason that may pass', async () => {
    const scope = createApiScope();
    await scope.configure({ faults: [{ status: 502, times: 20, match: '/access_tokens' }] });
    const memory = new Map();
    expect(await sourceFor(scope, appAuth({ memory })).resolve('main')).toMatchObject({ status: 'failed' });
    const failed = await scope.count('/access_tokens');
    await scope.configure({ faults: [] });
    expect(await sourceFor(scope, appAuth({ memory })).resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    expect(await scope.count('/access_tokens')).toBe(failed + 1);
  });

  it('reports a key that cannot be used for good, without asking GitHub', async () => {
    const scope = createApiScope();
    const result = await sourceFor(scope, appAuth({ privateKey: 'not a key' })).resolve('main');
    expect(result).toMatchObject({ status: 'failed', permanent: true });
    expect((await scope.stats()).count).toBe(0);
  });

  it('leaves a token exchange GitHub failed to answer retryable', async () => {
    const scope = createApiScope();
    await scope.configure({ faults: [{ status: 502, times: 20, match: '/access_tokens' }] });
    const result = await sourceFor(scope, appAuth()).resolve('main');
    expect(result).toMatchObject({ status: 'failed', reason: expect.stringContaining(`installation ${fx.installationId}`) });
    expect(result).not.toHaveProperty('permanent');
  });

  it('reports a token GitHub rejects as bad credentials, for resolve and for reads', async () => {
    const source = sourceFor(createApiScope(), tokenAuth('ghp_revoked'));
    expect(await source.resolve('main')).toMatchObject({ status: 'failed', reason: expect.stringContaining('bad credentials (401)') });
    expect(await source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: 10 })).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('bad credentials (401)'),
    });
  });

  it('reports a 403 without rate-limit headers as missing access, without retrying it', async () => {
    const scope = createApiScope();
    await scope.configure({ faults: [{ status: 403, times: 1, message: 'Resource not accessible by integration' }] });
    const result = await sourceFor(scope, tokenAuth(fx.token)).resolve('main');
    expect(result).toMatchObject({ status: 'failed', reason: expect.stringContaining('forbidden (403)') });
    expect(result).toMatchObject({ reason: expect.stringContaining('Resource not accessible by integration') });
    expect((await scope.stats()).count).toBe(1);
  });
});
