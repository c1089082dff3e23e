import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/env.ts';
import { scopeStore } from '../../src/sources/scoped-store.ts';
import { openTaskSource } from '../../src/tasks/open-source.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';

const fx = githubFixture();

describe('cache scoped by the credential that read', () => {
  it('keeps each scope to itself and every key within 512 bytes', async () => {
    const a = scopeStore(env.CACHE, 'github-token:aaa');
    const b = scopeStore(env.CACHE, 'github-installation:1');
    await a.put('gw:tree:v1:repo:commit', 'from a');
    expect(await a.get('gw:tree:v1:repo:commit', 'text')).toBe('from a');
    expect(await b.get('gw:tree:v1:repo:commit', 'text')).toBeNull();
    expect(await env.CACHE.get('gw:tree:v1:repo:commit', 'text')).toBeNull();

    const long = `gw:blob:v1:${'x'.repeat(505)}`;
    await a.put(long, 'long');
    expect(await a.get(long, 'text')).toBe('long');
    const keys = (await env.CACHE.list()).keys.map((key) => key.name);
    expect(keys.every((key) => new TextEncoder().encode(key).length <= 512)).toBe(true);
  });

  it('does not serve a commit cached by one credential to a task with another', async () => {
    const scope = createApiScope();
    const config = (extra: Record<string, string>) =>
      ConfigSchema.parse({ GITHUB_API_URL: scope.baseUrl, GITHUB_APP_ID: fx.appId, GITHUB_APP_PRIVATE_KEY: fx.keyPkcs8, ...extra });
    const read = async (request: { githubInstallationId?: number }, extra: Record<string, string>) => {
      const opened = await openTaskSource({ repo: `${fx.owner}/${fx.repo}`, ...request }, { config: config(extra), fetch, cache: env.CACHE });
      const result = await opened.source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: 4096 });
      return { status: result.status, requests: await scope.count('/git/') };
    };

    const cold = await read({}, { GITHUB_TOKEN: fx.token });
    expect(cold).toEqual({ status: 'ok', requests: 2 });
    // Same credential, same commit: served from KV.
    expect(await read({}, { GITHUB_TOKEN: fx.token })).toEqual({ status: 'ok', requests: 2 });
    // Another credential (the App installation) must go to GitHub itself, which decides access.
    expect(await read({ githubInstallationId: fx.installationId }, {})).toEqual({ status: 'ok', requests: 4 });
    // A token GitHub refuses gets nothing, cached or not.
    const refused = await read({}, { GITHUB_TOKEN: 'ghp_not_a_token_anyone_issued' });
    expect(refused.status).toBe('failed');
  });
});
