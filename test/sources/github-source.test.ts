import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createCachedLoader } from '../../src/sources/cached-loader.ts';
import { createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import { blobUrl, githubLocation } from '../../src/sources/github/location.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { gitBlobOid } from '../support/memory-tree.ts';

const fx = githubFixture();
const MAX = 65_536;

function setup() {
  const scope = createApiScope();
  const source = createGitHubSource({ owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
  return { scope, source };
}

describe('resolve', () => {
  it('returns a 40-hex ref as it is without asking GitHub', async () => {
    const { scope, source } = setup();
    expect(await source.resolve(fx.commits.first)).toEqual({ status: 'ok', commit: fx.commits.first });
    expect((await scope.stats()).count).toBe(0);
  });

  it('resolves a branch and an annotated tag to commits with one request each', async () => {
    const { scope, source } = setup();
    expect(await source.resolve('main')).toEqual({ status: 'ok', commit: fx.commits.head });
    expect(await source.resolve('v1')).toEqual({ status: 'ok', commit: fx.commits.first });
    expect(await scope.count('/commits/')).toBe(2);
  });

  it('reports an unknown ref and an unknown repository as missing, not failed', async () => {
    const { scope, source } = setup();
    expect(await source.resolve('no-such-branch')).toEqual({ status: 'missing', ref: 'no-such-branch' });
    const other = createGitHubSource({ owner: fx.owner, repo: 'gone', auth: tokenAuth(fx.token), baseUrl: scope.baseUrl });
    expect(await other.resolve('main')).toEqual({ status: 'missing', ref: 'main' });
  });
});

describe('snapshot', () => {
  it('lists directories with kinds and sizes from one tree request', async () => {
    const { scope, source } = setup();
    const snapshot = source.snapshot(fx.commits.head);
    const root = await snapshot.list('');
    expect(root.status === 'ok' && root.entries.map((entry) => [entry.name, entry.kind])).toEqual([
      ['.agents', 'dir'],
      ['AGENTS.md', 'file'],
      ['CLAUDE.md', 'symlink'],
      ['a', 'dir'],
      ['assets', 'dir'],
      ['docs', 'dir'],
      ['scripts', 'dir'],
      ['vendor', 'dir'],
    ]);
    const agents = root.status === 'ok' ? root.entries.find((entry) => entry.name === 'AGENTS.md') : undefined;
    expect(agents?.size).toBe(new TextEncoder().encode('# Rules at depth 0\n\nSecond edition.\n').length);
    expect(agents?.oid).toBe(await gitBlobOid('# Rules at depth 0\n\nSecond edition.\n'));
    // A submodule's object id is the commit it pins.
    expect(await snapshot.list('vendor')).toEqual({ status: 'ok', path: 'vendor', entries: [{ name: 'lib', path: 'vendor/lib', kind: 'submodule', oid: fx.commits.first }] });
    expect(await snapshot.list('scripts')).toMatchObject({ status: 'ok', entries: [{ name: 'run.sh', kind: 'file' }] });
    expect(await snapshot.list('AGENTS.md')).toEqual({ status: 'not-a-directory', path: 'AGENTS.md' });
    expect(await snapshot.list('nope')).toEqual({ status: 'missing', path: 'nope' });
    expect(await snapshot.list('../etc')).toMatchObject({ status: 'invalid-path' });
    expect(await scope.count('/git/trees/')).toBe(1);
  });

  it('reads files pinned to their commit', async () => {
    const { source } = setup();
    expect(await source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: MAX })).toMatchObject({
      status: 'ok',
      text: '# Rules at depth 0\n\nSecond edition.\n',
      truncated: false,
    });
    expect(await source.snapshot(fx.commits.first).read('./a/b/../b/c/d/e/AGENTS.md', { maxBytes: MAX })).toMatchObject({
      status: 'ok',
      path: 'a/b/c/d/e/AGENTS.md',
      text: '# Rules at depth 5\n\nFirst edition.\n',
    });
    expect(await source.snapshot(fx.commits.first).read('vendor/lib', { maxBytes: MAX })).toEqual({ status: 'missing', path: 'vendor/lib' });
  });

  it('cuts a read at maxBytes on a character boundary and reports the full size', async () => {
    const { source } = setup();
    const read = await source.snapshot(fx.commits.head).read('docs/guide.md', { maxBytes: 4 });
    const whole = 'Grüße aus dem Handbuch. ✓\n';
    // The blob id names the whole blob, not the part that was decoded.
    expect(read).toEqual({ status: 'ok', path: 'docs/guide.md', text: 'Grü', truncated: true, size: new TextEncoder().encode(whole).length, blob: await gitBlobOid(whole) });
  });

  it('resolves a symlink only to a regular file inside the tree, and says so', async () => {
    const { source } = setup();
    const snapshot = source.snapshot(fx.commits.head);
    expect(await snapshot.read('CLAUDE.md', { maxBytes: MAX })).toMatchObject({
      status: 'ok',
      text: '# Rules at depth 0\n\nSecond edition.\n',
      resolvedFrom: { link: 'CLAUDE.md', target: 'AGENTS.md' },
    });
    expect(await snapshot.read('docs/escape.md', { maxBytes: MAX })).toMatchObject({ status: 'unresolved-symlink', target: '../../outside.md' });
    expect(await snapshot.read('docs/dangling.md', { maxBytes: MAX })).toMatchObject({ status: 'unresolved-symlink', target: 'missing.md' });
    expect(await snapshot.read('docs/dir-link', { maxBytes: MAX })).toMatchObject({ status: 'unresolved-symlink', reason: 'target is a dir, not a regular file' });
  });

  it('reports binary and non-UTF-8 files instead of their bytes', async () => {
    const { source } = setup();
    const snapshot = source.snapshot(fx.commits.head);
    expect(await snapshot.read('assets/logo.png', { maxBytes: MAX })).toEqual({ status: 'binary', path: 'assets/logo.png', size: 12, reason: 'nul-byte' });
    expect(await snapshot.read('docs/latin1.txt', { maxBytes: MAX })).toEqual({ status: 'binary', path: 'docs/latin1.txt', size: 5, reason: 'invalid-utf8' });
    expect(await snapshot.read('vendor/lib', { maxBytes: MAX })).toEqual({ status: 'not-a-file', path: 'vendor/lib', kind: 'submodule' });
  });

  it('tells a missing path from a commit GitHub does not have', async () => {
    const { source } = setup();
    expect(await source.snapshot(fx.commits.head).read('nope.md', { maxBytes: MAX })).toEqual({ status: 'missing', path: 'nope.md' });
    const ghost = '0123456789abcdef0123456789abcdef01234567';
    const listed = await source.snapshot(ghost).list('');
    expect(listed).toEqual({ status: 'failed', path: '', reason: `not found (404): commit ${ghost} in acme/widgets`, permanent: true });
  });

  it('throws the caller abort instead of reporting a failure', async () => {
    const { scope, source } = setup();
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(source.snapshot(fx.commits.head).list('', { signal: controller.signal })).rejects.toThrow('deadline');
    expect((await scope.stats()).count).toBe(0);
  });
});

describe('commit facts', () => {
  it('reads the pinned commit\'s dates, tree and parents with one request, as git records them', async () => {
    const { scope, source } = setup();
    const snapshot = source.snapshot(fx.commits.head);
    expect(await snapshot.commitInfo()).toEqual({ status: 'ok', info: fx.commitFacts[fx.commits.head] });
    expect(await snapshot.commitInfo()).toEqual({ status: 'ok', info: fx.commitFacts[fx.commits.head] });
    expect(await scope.count(`/git/commits/${fx.commits.head}`)).toBe(1);
    expect((await scope.stats()).count).toBe(1);
  });

  it('serves them from the KV cache on a warm snapshot of the same commit', async () => {
    const repository = `acme-commit-facts-${crypto.randomUUID()}`;
    const cached = (scope: ReturnType<typeof createApiScope>) =>
      createGitHubSource({
        owner: fx.owner,
        repo: fx.repo,
        auth: tokenAuth(fx.token),
        baseUrl: scope.baseUrl,
        wrapLoader: (loader, at) => createCachedLoader(loader, env.CACHE, { ...at, repository }),
      });
    const cold = createApiScope();
    expect(await cached(cold).snapshot(fx.commits.first).commitInfo()).toEqual({ status: 'ok', info: fx.commitFacts[fx.commits.first] });
    expect((await cold.stats()).count).toBe(1);
    const warm = createApiScope();
    expect(await cached(warm).snapshot(fx.commits.first).commitInfo()).toEqual({ status: 'ok', info: fx.commitFacts[fx.commits.first] });
    expect((await warm.stats()).count).toBe(0);
  });

  it('reports a commit GitHub does not have as a failure naming it', async () => {
    const { source } = setup();
    const missing = '0'.repeat(40);
    expect(await source.snapshot(missing).commitInfo()).toEqual({ status: 'failed', reason: `not found (404): commit ${missing} in ${fx.owner}/${fx.repo}` });
  });
});

describe('transport', () => {
  it('sends every request through the injected fetch', async () => {
    const scope = createApiScope();
    const seen: string[] = [];
    const source = createGitHubSource({
      owner: fx.owner,
      repo: fx.repo,
      auth: tokenAuth(fx.token),
      baseUrl: scope.baseUrl,
      fetch: (input, init) => {
        seen.push(new URL(input instanceof Request ? input.url : input).pathname);
        return fetch(input, init);
      },
    });
    expect((await source.resolve('main')).status).toBe('ok');
    expect(await source.snapshot(fx.commits.head).read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok' });
    expect(seen.map((path) => path.replace(/^\/s\/[^/]+/, '').replace(/[0-9a-f]{40}/, '<sha>'))).toEqual([
      '/repos/acme/widgets/commits/main',
      '/repos/acme/widgets/git/trees/<sha>',
      '/repos/acme/widgets/git/blobs/<sha>',
    ]);
  });
});

describe('identity and links', () => {
  it('names the repository by API host and links to the blob at the commit', () => {
    const { scope, source } = setup();
    const host = new URL(scope.baseUrl).host;
    expect(source.repository).toBe(`github:${host}/acme/widgets`);
    expect(source.snapshot(fx.commits.head).uri('a/b/AGENTS.md')).toBe(`${scope.baseUrl}/acme/widgets/blob/${fx.commits.head}/a/b/AGENTS.md`);
  });

  it('maps github.com, GHE.com and GitHub Enterprise Server API hosts to their web hosts', () => {
    expect(githubLocation('https://api.github.com', 'acme', 'widgets')).toEqual({ repository: 'github:github.com/acme/widgets', htmlUrl: 'https://github.com/acme/widgets' });
    expect(githubLocation('https://api.octo.ghe.com', 'acme', 'widgets').htmlUrl).toBe('https://octo.ghe.com/acme/widgets');
    expect(githubLocation('https://ghe.example.com/api/v3/', 'acme', 'widgets')).toEqual({
      repository: 'github:ghe.example.com/acme/widgets',
      htmlUrl: 'https://ghe.example.com/acme/widgets',
    });
    expect(blobUrl('https://github.com/acme/widgets', 'c0ffee', 'docs/a b#.md')).toBe('https://github.com/acme/widgets/blob/c0ffee/docs/a%20b%23.md');
  });
});
