import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

let repo: GitFixture;
let committed: string;

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', 'committed rules\n');
  repo.write('docs/guide.md', 'committed guide\n');
  committed = repo.commitAll('baseline');
  // Three kinds of work that is not committed, all of which a snapshot must not see.
  repo.write('AGENTS.md', 'edited but not staged\n');
  repo.write('docs/guide.md', 'staged but not committed\n');
  repo.git('add', 'docs/guide.md');
  repo.write('docs/staged-new.md', 'new and staged\n');
  repo.git('add', 'docs/staged-new.md');
  repo.write('untracked.md', 'never added\n');
});

afterAll(() => repo.remove());

describe('the local source ignores the working tree and the index', () => {
  it('resolves HEAD to the last commit, not to the staged state', async () => {
    expect(await createLocalGitSource(repo.dir).resolve('HEAD')).toEqual({ status: 'ok', commit: committed });
  });

  it('reads committed content of a file with unstaged edits', async () => {
    const snapshot = createLocalGitSource(repo.dir).snapshot(committed);
    expect(await snapshot.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'committed rules\n' });
  });

  it('reads committed content of a file whose edit is staged', async () => {
    const snapshot = createLocalGitSource(repo.dir).snapshot(committed);
    expect(await snapshot.read('docs/guide.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'committed guide\n' });
  });

  it('does not list or read staged-new and untracked files', async () => {
    const snapshot = createLocalGitSource(repo.dir).snapshot(committed);
    const root = await snapshot.list('');
    const docs = await snapshot.list('docs');
    expect(root.status === 'ok' && root.entries.map((e) => e.path)).toEqual(['AGENTS.md', 'docs']);
    expect(docs.status === 'ok' && docs.entries.map((e) => e.path)).toEqual(['docs/guide.md']);
    expect(await snapshot.read('untracked.md', { maxBytes: 100 })).toEqual({ status: 'missing', path: 'untracked.md' });
    expect(await snapshot.read('docs/staged-new.md', { maxBytes: 100 })).toEqual({ status: 'missing', path: 'docs/staged-new.md' });
  });

  it('sees a new commit only through a new resolve', async () => {
    const source = createLocalGitSource(repo.dir);
    const pinned = source.snapshot(committed);
    await pinned.list('');
    repo.write('AGENTS.md', 'second commit\n');
    const next = repo.commitAll('second');
    expect(await pinned.read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'committed rules\n' });
    expect(await source.resolve('HEAD')).toEqual({ status: 'ok', commit: next });
  });
});

describe('a linked worktree (git worktree add)', () => {
  it('resolves its own HEAD and reads objects from the main repository', async () => {
    const main = createGitRepo();
    const linked = `${main.dir}-linked`;
    try {
      main.write('AGENTS.md', 'main rules\n');
      const base = main.commitAll('base');
      main.git('worktree', 'add', '--quiet', '-b', 'feature', linked);
      main.git('-C', linked, 'commit', '--quiet', '--allow-empty', '-m', 'feature work');
      const featureHead = main.git('-C', linked, 'rev-parse', 'HEAD');

      const source = createLocalGitSource(linked);
      expect(await source.resolve('HEAD')).toEqual({ status: 'ok', commit: featureHead });
      expect(await source.resolve('main')).toEqual({ status: 'ok', commit: base });
      expect(await source.snapshot(featureHead).read('AGENTS.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: 'main rules\n' });
    } finally {
      main.git('worktree', 'remove', '--force', linked);
      main.remove();
    }
  });
});

