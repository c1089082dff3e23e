import { describe, expect, inject, it } from 'vitest';
import type { FetchLike } from '../../src/sources/git/http-client.ts';
import { createRemoteGitSource } from '../../src/sources/git/remote-source.ts';

const base = `http://127.0.0.1:${inject('gitHttpPort')}`;
const fixtures = inject('gitHttpFixtures');

/** The real global fetch, counting requests so round trips are asserted, not assumed. */
function countingFetch(): { fetch: FetchLike; requests: string[] } {
  const requests: string[] = [];
  return {
    requests,
    fetch: (url, init) => {
      requests.push(`${init.method} ${new URL(url).pathname}${new URL(url).search}`);
      return fetch(url, init);
    },
  };
}

describe('resolving refs on a smart-HTTP remote', () => {
  const source = createRemoteGitSource(`${base}/sample.git`);

  it('resolves HEAD and a branch to the tip commit', async () => {
    expect(await source.resolve('HEAD')).toEqual({ status: 'ok', commit: fixtures.sample.head });
    expect(await source.resolve('main')).toEqual({ status: 'ok', commit: fixtures.sample.head });
    expect(await source.resolve('refs/heads/main')).toEqual({ status: 'ok', commit: fixtures.sample.head });
  });

  it('peels an annotated tag and reads a lightweight one', async () => {
    expect(await source.resolve('v1.0')).toEqual({ status: 'ok', commit: fixtures.sample.first });
    expect(await source.resolve('light')).toEqual({ status: 'ok', commit: fixtures.sample.first });
  });

  it('resolves the same way against a server that only speaks protocol v1', async () => {
    const counted = countingFetch();
    const legacy = createRemoteGitSource(`${base}/v1/sample.git`, { fetch: counted.fetch });
    expect(await legacy.resolve('main')).toEqual({ status: 'ok', commit: fixtures.sample.head });
    expect(await legacy.resolve('v1.0')).toEqual({ status: 'ok', commit: fixtures.sample.first });
    expect(await legacy.resolve('HEAD')).toEqual({ status: 'ok', commit: fixtures.sample.head });
    expect(await legacy.snapshot(fixtures.sample.first).read('README.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'Sample repository\n' });
  });

  it('costs two concurrent ls-refs exchanges for a short name and one for a full ref', async () => {
    const counted = countingFetch();
    const source = createRemoteGitSource(`${base}/sample.git`, { fetch: counted.fetch });
    await source.resolve('main');
    expect(counted.requests.sort()).toEqual([
      'GET /sample.git/info/refs?service=git-upload-pack',
      'GET /sample.git/info/refs?service=git-upload-pack',
      'POST /sample.git/git-upload-pack',
      'POST /sample.git/git-upload-pack',
    ]);
    counted.requests.length = 0;
    await source.resolve('refs/heads/main');
    expect(counted.requests).toHaveLength(2);
  });

  it('takes a 40-hex sha as it is, without a request', async () => {
    const counted = countingFetch();
    const result = await createRemoteGitSource(`${base}/sample.git`, { fetch: counted.fetch }).resolve(fixtures.sample.first.toUpperCase());
    expect(result).toEqual({ status: 'ok', commit: fixtures.sample.first });
    expect(counted.requests).toEqual([]);
  });

  it('reports an unknown ref as missing and an unknown repository as failed', async () => {
    expect(await source.resolve('no-such-branch')).toEqual({ status: 'missing', ref: 'no-such-branch' });
    const absent = await createRemoteGitSource(`${base}/absent.git`).resolve('main');
    expect(absent).toMatchObject({ status: 'failed', reason: expect.stringContaining(`listing refs of ${base}/absent.git failed`) });
  });
});

describe('reading a remote commit', () => {
  it('reads files, links and listings at the pinned commit', async () => {
    const snapshot = createRemoteGitSource(`${base}/sample.git`).snapshot(fixtures.sample.head);
    expect(await snapshot.read('AGENTS.md', { maxBytes: 1000 })).toMatchObject({
      status: 'ok',
      text: '# Agents\n\nRun `npm test` before committing.\n',
      resolvedFrom: { link: 'AGENTS.md', target: 'docs/AGENTS.md' },
    });
    const skills = await snapshot.list('skills');
    expect(skills.status === 'ok' && skills.entries.map((e) => [e.name, e.kind])).toEqual([
      ['escape.md', 'symlink'],
      ['review', 'dir'],
    ]);
    expect(await snapshot.read('assets/logo.bin', { maxBytes: 100 })).toMatchObject({ status: 'binary', reason: 'nul-byte' });
    expect(snapshot.uri('docs/AGENTS.md')).toBe(`${base}/sample.git/docs/AGENTS.md@${fixtures.sample.head}`);
  });

  it('reads the commit\'s own facts from the shallow fetch: the date as git records it and the parent', async () => {
    const snapshot = createRemoteGitSource(`${base}/sample.git`).snapshot(fixtures.sample.head);
    expect(await snapshot.commitInfo()).toMatchObject({
      status: 'ok',
      info: { commit: fixtures.sample.head, parents: [fixtures.sample.first], committedAt: fixtures.sample.headCommittedAt },
    });
  });
});

describe('the fetch a snapshot shares', () => {
  it('is not cancelled by one reader giving up: the other reader still gets its file', async () => {
    // The transport holds every request a while, so the first reader gives up mid-fetch.
    const slow: FetchLike = async (url, init) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return fetch(url, init);
    };
    const snapshot = createRemoteGitSource(`${base}/sample.git`, { fetch: slow }).snapshot(fixtures.sample.head);
    const impatient = new AbortController();
    const rules = snapshot.read('docs/AGENTS.md', { maxBytes: 1000, signal: impatient.signal });
    const skills = snapshot.read('skills/review/SKILL.md', { maxBytes: 1000, signal: new AbortController().signal });
    setTimeout(() => impatient.abort(new Error('rules exceeded 5000 ms')), 50);
    await expect(rules).rejects.toThrow('rules exceeded 5000 ms');
    expect(await skills).toMatchObject({ status: 'ok', text: '---\nname: review\n---\nReview carefully.\n' });
  });

  it('runs under the snapshot signal: a host that never answers fails every reader when it fires, naming the fetch', async () => {
    const deadline = new AbortController();
    const repo = `${base}/_silent/sample.git`;
    const snapshot = createRemoteGitSource(repo).snapshot(fixtures.sample.head, { signal: deadline.signal });
    const reads = [snapshot.read('README.md', { maxBytes: 100 }), snapshot.list('')];
    setTimeout(() => deadline.abort(new Error('assembly deadline')), 100);
    const expected = { status: 'failed', reason: `fetching ${repo} at ${fixtures.sample.head} failed: assembly deadline` };
    expect(await Promise.all(reads)).toEqual([
      { ...expected, path: 'README.md' },
      { ...expected, path: '' },
    ]);
  });
});

describe('cancellation', () => {
  it('throws the abort reason from resolve and from a read, and recovers on the next read', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    const source = createRemoteGitSource(`${base}/sample.git`);
    await expect(source.resolve('main', { signal: controller.signal })).rejects.toThrow('deadline');
    const snapshot = source.snapshot(fixtures.sample.head);
    await expect(snapshot.read('README.md', { maxBytes: 100, signal: controller.signal })).rejects.toThrow('deadline');
    expect(await snapshot.read('README.md', { maxBytes: 100 })).toMatchObject({ status: 'ok' });
  });
});

