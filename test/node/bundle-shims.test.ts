/**
 * The stand-ins wrangler.toml's [alias] puts in the Worker bundle for code it carries but never
 * runs: each keeps the answer its package gives where the Worker does call it, and fails loudly,
 * naming itself, where it must never be reached.
 */
import { requiresBasicAuth as realRequiresBasicAuth } from '@octokit/auth-oauth-user';
import { JSONParse as realJSONParse } from 'json-with-bigint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript stand-ins, typed by the packages they replace
import { createOAuthAppAuth } from '../../src/sources/github/shims/auth-oauth-app.mjs';
// @ts-expect-error: as above
import { createOAuthUserAuth, requiresBasicAuth } from '../../src/sources/github/shims/auth-oauth-user.mjs';
// @ts-expect-error: as above
import { JSONParse, JSONStringify } from '../../src/sources/github/shims/json-with-bigint.mjs';
// @ts-expect-error: as above
import { Lru } from '../../src/sources/github/shims/toad-cache.mjs';

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

  it('refuse, naming themselves, what the Worker never does', async () => {
    const oauthApp = createOAuthAppAuth({ clientType: 'github-app', clientId: '', clientSecret: '' });
    await expect(oauthApp({ type: 'oauth-app' })).rejects.toThrow(/not part of the Worker bundle.*auth-oauth-app\.mjs/);
    expect(() => createOAuthUserAuth({})).toThrow(/not part of the Worker bundle.*auth-oauth-user\.mjs/);
    // Built as auth-app builds its default for every client, then never used.
    const lru = new Lru(15e3, 1e3 * 60 * 59);
    for (const use of [() => lru.get('42'), () => lru.set('42', 'token'), () => lru.delete('42'), () => lru.clear()]) expect(use).toThrow(/not part of the Worker bundle.*toad-cache\.mjs/);
  });
});
