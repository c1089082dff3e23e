import { describe, expect, inject, it } from 'vitest';
import type { FetchLike } from '../../src/sources/git/http-client.ts';
import { createRemoteGitSource } from '../../src/sources/git/remote-source.ts';

const base = `http://127.0.0.1:${inject('gitHttpPort')}`;
const fixtures = inject('gitHttpFixtures');

async function advanceMoving(): Promise<string> {
  const response = await fetch(`${base}/_control/moving.git/advance`, { method: 'POST' });
  const body: { head: string } = await response.json();
  return body.head;
}

describe('a remote snapshot stays pinned to its commit', () => {
  it('reads the resolved commit after the branch has moved on', async () => {
    const source = createRemoteGitSource(`${base}/moving.git`);
    const resolved = await source.resolve('main');
    expect(resolved).toEqual({ status: 'ok', commit: fixtures.moving.head });
    const pinned = source.snapshot(fixtures.moving.head);

    const newHead = await advanceMoving();
    expect(newHead).not.toBe(fixtures.moving.head);
    expect(await source.resolve('main')).toEqual({ status: 'ok', commit: newHead });

    // Nothing was fetched before the push, so this proves the fetch asks for the sha itself.
    expect(await pinned.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'version 1\n' });
    const later = await source.snapshot(newHead).read('AGENTS.md', { maxBytes: 100 });
    expect(later.status === 'ok' && later.text).toMatch(/^version \d+\n$/);
  });

  it('costs two requests per snapshot and none per further read', async () => {
    const requests: string[] = [];
    const counting: FetchLike = (url, init) => {
      requests.push(`${init.method} ${new URL(url).pathname}`);
      return fetch(url, init);
    };
    const snapshot = createRemoteGitSource(`${base}/sample.git`, { fetch: counting }).snapshot(fixtures.sample.first);
    await Promise.all([snapshot.list(''), snapshot.read('README.md', { maxBytes: 100 }), snapshot.read('AGENTS.md', { maxBytes: 100 })]);
    await snapshot.read('docs/AGENTS.md', { maxBytes: 100 });
    expect(requests).toEqual(['GET /sample.git/info/refs', 'POST /sample.git/git-upload-pack']);
  });

  it('explains a commit the server will not send', async () => {
    const unknown = 'f'.repeat(40);
    const result = await createRemoteGitSource(`${base}/sample.git`).snapshot(unknown).read('AGENTS.md', { maxBytes: 100 });
    expect(result).toMatchObject({ status: 'failed', reason: `fetching ${base}/sample.git at ${unknown} failed: the server sent no commit ${unknown}: it does not exist there, or no branch or tag reaches it` });
  });
});
