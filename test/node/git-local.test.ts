import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import type { RepositorySource, Snapshot } from '../../src/sources/snapshot.ts';
import { gitBlobOid } from '../support/memory-tree.ts';
import { buildSampleRepo, createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

let repo: GitFixture;
let shas: { first: string; head: string };
let source: RepositorySource;

async function headSnapshot(): Promise<Snapshot> {
  const resolved = await source.resolve('HEAD');
  if (resolved.status !== 'ok') throw new Error(`HEAD did not resolve: ${JSON.stringify(resolved)}`);
  return source.snapshot(resolved.commit);
}

beforeAll(() => {
  repo = createGitRepo();
  shas = buildSampleRepo(repo);
  // A gitlink entry is all a submodule is in the tree; no nested repository needed.
  repo.git('update-index', '--add', '--cacheinfo', `160000,${shas.first},vendor/lib`);
  repo.git('commit', '--quiet', '-m', 'add submodule');
  shas.head = repo.git('rev-parse', 'HEAD');
  source = createLocalGitSource(repo.dir);
});

afterAll(() => repo.remove());

describe('the facts of the pinned commit', () => {
  it('reads dates, tree and parents as git records them, in UTC', async () => {
    const snapshot = await headSnapshot();
    const [tree, parents, committed, authored] = repo.git('log', '-1', '--format=%T%n%P%n%ct%n%at', shas.head).split('\n');
    const iso = (seconds = '') => new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(await snapshot.commitInfo()).toEqual({
      status: 'ok',
      info: { commit: shas.head, tree, parents: parents?.split(' '), committedAt: iso(committed), authoredAt: iso(authored) },
    });
  });

  it('reports a commit the repository does not have as a failure', async () => {
    expect(await source.snapshot('0'.repeat(40)).commitInfo()).toMatchObject({ status: 'failed', reason: expect.any(String) });
  });
});

describe('resolving refs in a local repository', () => {
  it('resolves HEAD, a branch and a full ref name to the same commit', async () => {
    for (const ref of ['HEAD', 'main', 'refs/heads/main']) {
      expect(await source.resolve(ref)).toEqual({ status: 'ok', commit: shas.head });
    }
  });

  it('peels an annotated tag and follows a lightweight one to the tagged commit', async () => {
    expect(await source.resolve('v1.0')).toEqual({ status: 'ok', commit: shas.first });
    expect(await source.resolve('refs/tags/v1.0')).toEqual({ status: 'ok', commit: shas.first });
    expect(await source.resolve('light')).toEqual({ status: 'ok', commit: shas.first });
  });

  it('accepts full and abbreviated shas in either case', async () => {
    expect(await source.resolve(shas.first)).toEqual({ status: 'ok', commit: shas.first });
    expect(await source.resolve(shas.first.slice(0, 8).toUpperCase())).toEqual({ status: 'ok', commit: shas.first });
  });

  it('reports an unknown ref or sha as missing, not failed', async () => {
    expect(await source.resolve('no-such-branch')).toEqual({ status: 'missing', ref: 'no-such-branch' });
    expect(await source.resolve('f'.repeat(40))).toEqual({ status: 'missing', ref: 'f'.repeat(40) });
  });

  it('refuses ref names that could walk out of the gitdir', async () => {
    const result = await source.resolve('../../../etc/passwd');
    expect(result).toMatchObject({ status: 'failed', reason: expect.stringContaining('invalid ref name') });
  });

  it('fails clearly on a directory that is not a repository', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'groundwork-plain-'));
    try {
      const result = await createLocalGitSource(plain).resolve('HEAD');
      expect(result).toEqual({ status: 'failed', ref: 'HEAD', reason: `not a git repository: ${plain} has no .git` });
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('reading a local commit', () => {
  it('names the repository by its absolute path and builds path@commit URIs', async () => {
    const snapshot = await headSnapshot();
    expect(snapshot.repository).toBe(`file://${repo.dir}`);
    expect(snapshot.uri('docs/AGENTS.md')).toBe(`file://${repo.dir}/docs/AGENTS.md@${shas.head}`);
  });

  it('lists every kind of entry, nested directories included', async () => {
    const snapshot = await headSnapshot();
    const root = await snapshot.list('');
    expect(root.status === 'ok' && root.entries.map((e) => [e.name, e.kind])).toEqual([
      ['AGENTS.md', 'symlink'],
      ['README.md', 'file'],
      ['assets', 'dir'],
      ['dangling.md', 'symlink'],
      ['docs', 'dir'],
      ['docs-link', 'symlink'],
      ['skills', 'dir'],
      ['src', 'dir'],
      ['vendor', 'dir'],
    ]);
    expect(await snapshot.list('src/app/deep/nested')).toMatchObject({
      status: 'ok',
      entries: [{ name: 'file.ts', path: 'src/app/deep/nested/file.ts', kind: 'file', oid: await gitBlobOid('export const deep = true;\n') }],
    });
    expect(await snapshot.list('vendor')).toMatchObject({ status: 'ok', entries: [{ name: 'lib', kind: 'submodule' }] });
  });

  it('reads a symlinked AGENTS.md through to its target and records the link', async () => {
    const result = await (await headSnapshot()).read('AGENTS.md', { maxBytes: 1000 });
    expect(result).toEqual({
      status: 'ok',
      path: 'AGENTS.md',
      text: '# Agents\n\nRun `npm test` before committing.\n',
      size: 44,
      truncated: false,
      // The target's blob: the link's own blob holds only the path it points to.
      blob: await gitBlobOid('# Agents\n\nRun `npm test` before committing.\n'),
      resolvedFrom: { link: 'AGENTS.md', target: 'docs/AGENTS.md' },
    });
  });

  it('reports links that escape, dangle or name a directory, and binary files', async () => {
    const snapshot = await headSnapshot();
    expect(await snapshot.read('skills/escape.md', { maxBytes: 100 })).toMatchObject({ status: 'unresolved-symlink', target: '../../outside.txt' });
    expect(await snapshot.read('dangling.md', { maxBytes: 100 })).toMatchObject({ status: 'unresolved-symlink', target: 'missing.md' });
    expect(await snapshot.read('docs-link', { maxBytes: 100 })).toMatchObject({ status: 'unresolved-symlink', reason: 'target is a dir, not a regular file' });
    expect(await snapshot.read('assets/logo.bin', { maxBytes: 100 })).toEqual({ status: 'binary', path: 'assets/logo.bin', size: 7, reason: 'nul-byte' });
    expect(await snapshot.read('vendor/lib', { maxBytes: 100 })).toEqual({ status: 'not-a-file', path: 'vendor/lib', kind: 'submodule' });
  });

  it('keeps reading the first commit after later commits', async () => {
    const first = source.snapshot(shas.first);
    expect(await first.read('README.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'Sample repository\n' });
    expect(await first.read('skills/review/SKILL.md', { maxBytes: 100 })).toEqual({ status: 'missing', path: 'skills/review/SKILL.md' });
  });
});

describe('a packed repository', () => {
  it('reads packed refs, packed objects and a peeled packed tag after git gc', async () => {
    const packed = createGitRepo();
    try {
      const { first, head } = buildSampleRepo(packed);
      packed.git('gc', '--quiet', '--aggressive');
      packed.git('pack-refs', '--all');
      const local = createLocalGitSource(packed.dir);
      expect(await local.resolve('main')).toEqual({ status: 'ok', commit: head });
      expect(await local.resolve('v1.0')).toEqual({ status: 'ok', commit: first });
      expect(await local.snapshot(head).read('AGENTS.md', { maxBytes: 1000 })).toMatchObject({ status: 'ok', resolvedFrom: { target: 'docs/AGENTS.md' } });
    } finally {
      packed.remove();
    }
  });

  it('throws the caller\'s abort reason rather than reporting a failure', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(source.resolve('HEAD', { signal: controller.signal })).rejects.toThrow('deadline');
    await expect(source.snapshot(shas.head).list('', { signal: controller.signal })).rejects.toThrow('deadline');
  });
});

