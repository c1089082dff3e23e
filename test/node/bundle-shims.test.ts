/**
 * The stand-ins wrangler.toml's [alias] puts in the Worker bundle for code it carries but never
 * runs: each keeps the answer its package gives where the Worker does call it, and fails loudly,
 * naming itself, where it must never be reached.
 */
import { createRequire } from 'node:module';
import { requiresBasicAuth as realRequiresBasicAuth } from '@octokit/auth-oauth-user';
import { JSONParse as realJSONParse } from 'json-with-bigint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript stand-ins, typed by the packages they replace
import AsyncLock from '../../src/sources/git/shims/async-lock.mjs';
// @ts-expect-error: as above
import { createOAuthAppAuth } from '../../src/sources/github/shims/auth-oauth-app.mjs';
// @ts-expect-error: as above
import { createOAuthUserAuth, requiresBasicAuth } from '../../src/sources/github/shims/auth-oauth-user.mjs';
// @ts-expect-error: as above
import { JSONParse, JSONStringify } from '../../src/sources/github/shims/json-with-bigint.mjs';
// @ts-expect-error: as above
import { Lru } from '../../src/sources/github/shims/toad-cache.mjs';

const require = createRequire(import.meta.url);

/** What isomorphic-git uses of async-lock (index.js `acquireLock`). */
interface KeyLock {
  acquire<T>(key: string | string[], fn: () => Promise<T>): Promise<T>;
}
const RealAsyncLock = require('async-lock') as new (options: { maxPending: number }) => KeyLock;

describe("the Worker bundle's stand-ins", () => {
  it('route every request as @octokit/auth-oauth-user does', () => {
    const urls = [
      '/app/installations/42/access_tokens',
      '/repos/acme/widgets/pulls/7/files',
      '/graphql',
      '/applications/Iv1.abc/token',
      '/applications/Iv1.abc/grant',
      '/applications/Iv1.abc/tokens/x',
      'https://api.github.com/applications/Iv1.abc/token/scoped',
      '',
      undefined,
    ];
    expect(urls.map((url) => Boolean(requiresBasicAuth(url)))).toEqual(urls.map((url) => Boolean(realRequiresBasicAuth(url as string))));
  });

  it('parse what GitHub sends as json-with-bigint does, for every integer GitHub ids and sizes reach', () => {
    const text = JSON.stringify({ id: 2 ** 40, node_id: 'MDEwOlJlcG9zaXRvcnkx', size: 123_456, nested: [{ n: -17, f: 1.5, s: '12345678901234567890' }], none: null });
    expect(JSONParse(text)).toEqual(realJSONParse(text));
    expect(JSONStringify({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
  });

  it.each([
    ['the stand-in', (): KeyLock => new AsyncLock({ maxPending: Infinity })],
    ['async-lock', (): KeyLock => new RealAsyncLock({ maxPending: Infinity })],
  ])('lock as isomorphic-git uses async-lock: %s runs one call per key at a time, in order, and releases a key on failure', async (_name, make) => {
    const lock = make();
    const events: string[] = [];
    const step = (name: string) => async () => {
      events.push(`${name}:start`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      events.push(`${name}:end`);
      return name;
    };
    const failing = async () => {
      events.push('fail:start');
      throw new Error('refused');
    };
    const answers = await Promise.allSettled([
      lock.acquire('refs/heads/main', step('a')),
      lock.acquire('refs/heads/main', failing),
      lock.acquire('refs/heads/main', step('b')),
      lock.acquire(['packed-refs', 'refs/heads/main'], step('c')),
    ]);
    expect(answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : (answer.reason as Error).message))).toEqual(['a', 'refused', 'b', 'c']);
    // One key: strictly one after another, in the order asked; the list waits for every key it names.
    expect(events).toEqual(['a:start', 'a:end', 'fail:start', 'b:start', 'b:end', 'c:start', 'c:end']);
    // Different keys do not wait for each other.
    const order: string[] = [];
    await Promise.all([
      lock.acquire('index', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('index');
      }),
      lock.acquire('shallow', async () => {
        order.push('shallow');
      }),
    ]);
    expect(order).toEqual(['shallow', 'index']);
  });

  it('refuse, naming themselves, what the Worker never does', async () => {
    const oauthApp = createOAuthAppAuth({ clientType: 'github-app', clientId: '', clientSecret: '' });
    await expect(oauthApp({ type: 'oauth-app' })).rejects.toThrow(/not part of the Worker bundle.*auth-oauth-app\.mjs/);
    expect(() => createOAuthUserAuth({})).toThrow(/not part of the Worker bundle.*auth-oauth-user\.mjs/);
    const ignore = require('../../src/sources/git/shims/ignore.cjs') as () => unknown;
    const diff3 = require('../../src/sources/git/shims/diff3.cjs') as () => unknown;
    expect(() => ignore()).toThrow(/no working tree.*ignore\.cjs/);
    expect(() => diff3()).toThrow(/never merges.*diff3\.cjs/);
    const pify = require('../../src/sources/git/shims/pify.cjs') as () => unknown;
    expect(() => pify()).toThrow(/promise-based.*pify\.cjs/);
    // Built as auth-app builds its default for every client, then never used.
    const lru = new Lru(15e3, 1e3 * 60 * 59);
    for (const use of [() => lru.get('42'), () => lru.set('42', 'token'), () => lru.delete('42'), () => lru.clear()]) expect(use).toThrow(/not part of the Worker bundle.*toad-cache\.mjs/);
    expect(() => new AsyncLock({ timeout: 10 })).toThrow(/not part of the Worker bundle.*async-lock\.mjs/);
    expect(() => new AsyncLock().acquire('index', (done: () => void) => done())).toThrow(/not part of the Worker bundle.*async-lock\.mjs/);
  });
});
