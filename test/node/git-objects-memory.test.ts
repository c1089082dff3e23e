/**
 * The GitHub test server's git reads (test/support/git-objects) answer what a full object id
 * names from memory once git has answered it: a commit's id and the commit itself never change,
 * and two git processes for each pull request's files, check run and GraphQL commit were the
 * server's own time that bench/first-turn counted as GitHub's latency (issue 56). What git could
 * not answer, and what a branch names, are asked again: the repository is taken away after the
 * first answers, so only a remembered answer survives.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { gitObjects } from '../support/git-objects.ts';

let repo: GitFixture | undefined;
const others: GitFixture[] = [];
afterEach(() => {
  repo?.remove();
  for (const other of others.splice(0)) other.remove();
});

function repositoryWithTwoCommits(): { repo: GitFixture; first: string; second: string } {
  repo = createGitRepo();
  repo.write('a.txt', 'one\n');
  const first = repo.commitAll('first');
  repo.write('a.txt', 'two\n');
  const second = repo.commitAll('second');
  return { repo, first, second };
}

/** git finds no repository at the fixture's directory any more. */
function takeGitAway(fixture: GitFixture): void {
  renameSync(join(fixture.dir, '.git'), join(fixture.dir, '.git-away'));
}

describe('the test server reading git', () => {
  it('answers a full commit id and its commit from memory once git has answered them', async () => {
    const { repo, first, second } = repositoryWithTwoCommits();
    const git = gitObjects(repo.dir);
    expect(await git.commitOf(second)).toBe(second);
    const commit = await git.commit(first);
    expect(commit?.parents).toEqual([]);
    takeGitAway(repo);
    expect(await git.commitOf(second)).toBe(second);
    expect(await git.commit(first)).toEqual(commit);
  });

  it('asks git again for a branch, and for an id git did not have yet', async () => {
    const { repo, second } = repositoryWithTwoCommits();
    const git = gitObjects(repo.dir);
    expect(await git.commitOf('main')).toBe(second);
    // The branch moves: a new commit on it is what it names now.
    repo.write('a.txt', 'three\n');
    const third = repo.commitAll('third');
    expect(await git.commitOf('main')).toBe(third);
    // A commit made elsewhere arrives later (a test pushes it): its absence was not remembered.
    const other = createGitRepo();
    others.push(other);
    other.write('b.txt', 'elsewhere\n');
    const later = other.commitAll('elsewhere');
    expect(await git.commitOf(later)).toBeUndefined();
    expect(await git.commit(later)).toBeUndefined();
    repo.git('fetch', '--quiet', other.dir, 'main');
    expect(await git.commitOf(later)).toBe(later);
    expect((await git.commit(later))?.sha).toBe(later);
  });
});
