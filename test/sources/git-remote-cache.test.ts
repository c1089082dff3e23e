import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import type { FetchLike } from '../../src/sources/git/http-client.ts';
import { createRemoteGitSource } from '../../src/sources/git/remote-source.ts';

const base = `http://127.0.0.1:${inject('gitHttpPort')}`;
const fixtures = inject('gitHttpFixtures');

describe('a remote source with the KV cache', () => {
  it('fetches a commit once, then serves later snapshots of it from KV with no requests', async () => {
    const requests: string[] = [];
    const counting: FetchLike = (url, init) => {
      requests.push(`${init.method} ${new URL(url).pathname}`);
      return fetch(url, init);
    };
    const source = createRemoteGitSource(`${base}/sample.git`, { fetch: counting, cache: { store: env.CACHE } });
    const reads = async () => {
      const snapshot = source.snapshot(fixtures.sample.head);
      return [
        await snapshot.read('AGENTS.md', { maxBytes: 1000 }),
        await snapshot.list('skills/review'),
        await snapshot.read('skills/review/SKILL.md', { maxBytes: 1000 }),
        await snapshot.commitInfo(),
      ];
    };
    const cold = await reads();
    expect(requests).toHaveLength(2);
    expect(cold[0]).toMatchObject({ status: 'ok', resolvedFrom: { target: 'docs/AGENTS.md' } });
    expect(cold[3]).toMatchObject({ status: 'ok', info: { committedAt: fixtures.sample.headCommittedAt } });

    const warm = await reads();
    expect(warm).toEqual(cold);
    expect(requests).toHaveLength(2);
  });
});
