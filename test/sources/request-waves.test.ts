import { describe, expect, it } from 'vitest';
import { requestWaves } from '../support/request-waves.ts';

/** An inner fetch that answers each path after the delay it names, so answers come back in any order. */
function answering(delays: Record<string, number>, status = 200): typeof fetch {
  return async (input) => {
    const path = new URL(new Request(input).url).pathname;
    await new Promise((resolve) => setTimeout(resolve, delays[path] ?? 0));
    return new Response(status === 304 ? null : path, { status });
  };
}

const at = (path: string) => `https://api.test${path}`;
/** Synchronous work, as a loaded machine makes every step slower: the event loop cannot turn meanwhile. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('requestWaves counts what each request waited for', () => {
  it('counts requests issued together as one round whatever order their answers take', async () => {
    const waves = requestWaves(answering({ '/fast': 0, '/slow': 150 }));
    const fast = waves.fetch(at('/fast'));
    busy(50);
    // Issued after the fast answer had arrived at the wrapper: it still waited for nothing.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const slow = waves.fetch(at('/slow'));
    expect(await Promise.all([fast, slow].map(async (response) => (await response).text()))).toEqual(['/fast', '/slow']);
    expect(waves.rounds()).toBe(1);
  });

  it('counts each request that needed an answer first as one more round, however fast the answers are', async () => {
    const waves = requestWaves(answering({}));
    for (const path of ['/a', '/b', '/c']) await (await waves.fetch(at(path))).text();
    expect(waves.requests()).toEqual([
      { method: 'GET', path: '/a', round: 1 },
      { method: 'GET', path: '/b', round: 2 },
      { method: 'GET', path: '/c', round: 3 },
    ]);
    expect(waves.rounds()).toBe(3);
  });

  it('keeps a fan-out after each answer in its own round (resolve, then a tree and blobs at once)', async () => {
    const waves = requestWaves(answering({ '/resolve': 30, '/blob/1': 80 }));
    await waves.fetch(at('/resolve'));
    await Promise.all([waves.fetch(at('/tree')), ...[1, 2, 3].map((n) => waves.fetch(at(`/blob/${n}`)))]);
    expect(waves.requests().map((request) => request.round)).toEqual([1, 2, 2, 2, 2]);
  });

  it('passes a bodiless answer through', async () => {
    const waves = requestWaves(answering({}, 304));
    expect((await waves.fetch(at('/etag'))).status).toBe(304);
  });
});
