import { describe, expect, inject, it } from 'vitest';
import type { FetchLike } from '../../src/sources/git/http-client.ts';
import { createRemoteGitSource } from '../../src/sources/git/remote-source.ts';

const port = inject('gitHttpPort');
const base = `http://127.0.0.1:${port}`;
const fixtures = inject('gitHttpFixtures');

function meteredFetch(): { fetch: FetchLike; bytes: () => number; headers: Headers[] } {
  let bytes = 0;
  const headers: Headers[] = [];
  return {
    headers,
    bytes: () => bytes,
    fetch: async (url, init) => {
      headers.push(new Headers(init.headers));
      const response = await fetch(url, init);
      const body = new Uint8Array(await response.arrayBuffer());
      bytes += body.byteLength;
      return new Response(body, { status: response.status, headers: response.headers });
    },
  };
}

describe('the remote fetch size cap', () => {
  it('fetches shallowly: a large blob deleted before the pinned commit is never downloaded', async () => {
    const metered = meteredFetch();
    const source = createRemoteGitSource(`${base}/history.git`, { fetch: metered.fetch, maxFetchBytes: 64 * 1024 });
    const snapshot = source.snapshot(fixtures.history.small);
    expect(await snapshot.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'history\n' });
    expect(metered.bytes()).toBeLessThan(8 * 1024);
  });

  it('fails a snapshot whose pack exceeds the cap, naming the cap and the setting', async () => {
    const source = createRemoteGitSource(`${base}/history.git`, { maxFetchBytes: 256 * 1024, capSetting: 'GIT_MAX_FETCH_BYTES' });
    const snapshot = source.snapshot(fixtures.history.big);
    const expected = `fetching ${base}/history.git at ${fixtures.history.big} exceeded the size cap of 262144 bytes (GIT_MAX_FETCH_BYTES); raise it to read this repository`;
    // Asking again cannot help until the cap is raised: the failure says it is permanent.
    expect(await snapshot.read('AGENTS.md', { maxBytes: 100 })).toEqual({ status: 'failed', path: 'AGENTS.md', reason: expected, permanent: true });
    expect(await snapshot.list('')).toEqual({ status: 'failed', path: '', reason: expected, permanent: true });
  });

  it('reads the same commit once the cap allows it', async () => {
    const source = createRemoteGitSource(`${base}/history.git`, { maxFetchBytes: 4 * fixtures.history.bigBytes });
    const result = await source.snapshot(fixtures.history.big).read('big.bin', { maxBytes: 16 });
    expect(result).toMatchObject({ status: 'binary', size: fixtures.history.bigBytes });
  });
});

describe('remote credentials', () => {
  it('sends URL credentials as a header and keeps them out of identity, URIs and reasons', async () => {
    const metered = meteredFetch();
    const source = createRemoteGitSource(`http://agent:s3cret@127.0.0.1:${port}/absent.git/`, { fetch: metered.fetch });
    expect(source.repository).toBe(`${base}/absent.git`);
    const result = await source.resolve('main');
    expect(JSON.stringify(result)).not.toContain('s3cret');
    expect(metered.headers[0]?.get('authorization')).toBe(`Basic ${btoa('agent:s3cret')}`);
    expect(source.snapshot(fixtures.sample.head).uri('a b.md')).toBe(`${base}/absent.git/a%20b.md@${fixtures.sample.head}`);
  });

  it('rejects a non-HTTP URL as a failure value without echoing it', async () => {
    const result = await createRemoteGitSource('ssh://git@example.com/repo.git').resolve('main');
    expect(result).toEqual({ status: 'failed', ref: 'main', reason: 'remote git URL must use http or https, not ssh' });
  });
});
