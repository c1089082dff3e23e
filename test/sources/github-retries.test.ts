import { describe, expect, it } from 'vitest';
import { createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import type { RetryPolicy } from '../../src/sources/github/index.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import type { ApiScope, Fault } from '../support/github-api-client.ts';

const fx = githubFixture();

async function withFaults(faults: Fault[], retry: Partial<RetryPolicy> = {}) {
  const scope: ApiScope = createApiScope();
  await scope.configure({ faults });
  const source = createGitHubSource({ owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl, retry: { baseDelayMs: 5, ...retry } });
  return { scope, source };
}

describe('transient failures', () => {
  it('retries 502s on the tree and answers as if nothing happened', async () => {
    const { scope, source } = await withFaults([{ status: 502, times: 2, match: '/git/trees/' }]);
    expect(await source.snapshot(fx.commits.head).list('a')).toMatchObject({ status: 'ok' });
    expect((await scope.stats()).requests.map((request) => request.status)).toEqual([502, 502, 200]);
  });

  it('gives up after the retry budget with a reason naming the server error', async () => {
    const { scope, source } = await withFaults([{ status: 503, times: 10, match: '/git/blobs/' }], { retries: 2 });
    const read = await source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: 100 });
    expect(read).toMatchObject({ status: 'failed', reason: expect.stringContaining('GitHub API error (503)') });
    expect(await scope.count('/git/blobs/')).toBe(3);
  });

  it('waits out a secondary rate limit for as long as retry-after says', async () => {
    const { scope, source } = await withFaults([{ status: 403, times: 1, retryAfter: 1, message: 'You have exceeded a secondary rate limit' }]);
    expect(await source.resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    const [limited, retried] = (await scope.stats()).requests;
    expect([limited?.status, retried?.status]).toEqual([403, 200]);
    expect((retried?.startedAt ?? 0) - (limited?.endedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries a 429 and a primary rate limit whose reset is near', async () => {
    const { scope, source } = await withFaults([
      { status: 429, times: 1, retryAfter: 0 },
      { status: 403, times: 1, rateLimitResetIn: 0 },
    ]);
    expect((await source.resolve('v1')).status).toBe('ok');
    expect((await scope.stats()).requests.map((request) => request.status)).toEqual([429, 403, 200]);
  });

  it('does not wait for a retry-after beyond its cap, and says why it failed', async () => {
    const { scope, source } = await withFaults([{ status: 403, times: 1, retryAfter: 120 }], { maxDelayMs: 2_000 });
    const result = await source.resolve('main');
    expect(result).toMatchObject({ status: 'failed', reason: expect.stringContaining('secondary rate limit (403)') });
    expect((await scope.stats()).count).toBe(1);
  });

  it('does not sleep past the caller deadline', async () => {
    // The caller gives up once the 502 is in, while the source waits out its retry-after of an
    // hour (within the cap, so it does wait): a sleep that outlasted the signal would hold the
    // test to its timeout, and the clock decides nothing.
    const scope: ApiScope = createApiScope();
    await scope.configure({ faults: [{ status: 502, times: 1, retryAfter: 3_600 }] });
    const caller = new AbortController();
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (response.status === 502) setTimeout(() => caller.abort(new Error('the caller gave up')), 0);
      return response;
    };
    const source = createGitHubSource({ owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl, retry: { baseDelayMs: 5, maxDelayMs: 3_600_000 }, fetch });
    await expect(source.resolve('main', { signal: caller.signal })).rejects.toThrow('the caller gave up');
    expect((await scope.stats()).count).toBe(1);
  });
});
