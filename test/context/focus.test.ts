import { describe, expect, it } from 'vitest';
import { FOCUS_LIMITS, focusPathsOf, pullRequestFocus } from '../../src/context/focus.ts';
import type { PullRequestFile } from '../../src/sources/pull-requests.ts';
import { compareTreeOrder, focusDirectories } from '../../src/providers/rules/chain.ts';
import { chainShares } from '../../src/providers/rules/chain-budget.ts';

const file = (path: string, status = 'modified', previousPath?: string): PullRequestFile => ({ path, status, additions: 1, deletions: 0, ...(previousPath ? { previousPath } : {}) });

describe('focus paths', () => {
  it('keep every group in order, each path once, without the working directory or the root', () => {
    expect(focusPathsOf('src', [['b', 'src', 'a'], ['', 'a', 'c']])).toEqual(['b', 'a', 'c']);
  });

  it("follow a pull request's renames and deletions where they were, at the base", () => {
    const focus = pullRequestFocus([file('new/place.ts', 'renamed', 'old/place.ts'), file('gone.ts', 'removed'), file('added/dir/x.ts', 'added'), file('a\\b.ts')], true);
    expect(focus).toEqual({ paths: ['old/place.ts', 'gone.ts', 'added/dir/x.ts'], leftOut: { count: 0, exact: true }, unusable: 1 });
  });

  it('take the first 300 files in GitHub’s order and count the rest, exactly when they can', () => {
    const files = Array.from({ length: 310 }, (_, i) => file(`f${i}`));
    expect(pullRequestFocus(files, true).leftOut).toEqual({ count: 10, exact: true });
    expect(pullRequestFocus(files, true).paths).toHaveLength(FOCUS_LIMITS.pullRequestFiles);
    expect(pullRequestFocus(files.slice(0, 300), false, 420).leftOut).toEqual({ count: 120, exact: true });
    expect(pullRequestFocus(files.slice(0, 300), false).leftOut).toEqual({ count: 0, exact: false });
  });
});

describe('directory chains of a focus', () => {
  it('sort a parent before any child and siblings by path, segment by segment', () => {
    expect(['a-b', 'a/b', '', 'a', 'b', 'a/a/z'].sort(compareTreeOrder)).toEqual(['', 'a', 'a/a/z', 'a/b', 'a-b', 'b']);
  });

  it("read each directory once, the working directory's chain first, and cut whole chains from the root down", () => {
    expect(focusDirectories('a/b', ['c/d.ts', 'a/e'], { files: ['c/d.ts'] })).toEqual({ dirs: ['', 'a', 'a/b', 'a/e', 'c'], cut: [] });
    const bounded = focusDirectories('a/b', ['x/y/z', 'q'], { max: 4 });
    expect(bounded).toEqual({ dirs: ['', 'a', 'a/b', 'x'], cut: ['q', 'x/y', 'x/y/z'] });
  });
});

describe('the budget of many chains', () => {
  const holds = (floor: number) => (_: number, share: number) => share >= floor;

  it('is max-min fair when every share holds something', () => {
    expect(chainShares([{ need: 10_000, nearest: false, reach: 3, depth: 0 }, { need: 50, nearest: true, reach: 1, depth: 2 }], 1_000, holds(1))).toEqual([950, 50]);
  });

  it('leaves out files nearest to no focus path before any nearest one, the fewest paths and the deepest first', () => {
    const files = [
      { need: 500, nearest: false, reach: 3, depth: 0 },
      { need: 500, nearest: false, reach: 2, depth: 1 },
      { need: 500, nearest: true, reach: 1, depth: 2 },
      { need: 500, nearest: true, reach: 1, depth: 2 },
    ];
    expect(chainShares(files, 100, holds(30))).toEqual([33, undefined, 33, 34]);
    expect(chainShares(files, 100, holds(50))).toEqual([undefined, undefined, 50, 50]);
    expect(chainShares(files, 100, holds(60))).toEqual([undefined, undefined, 100, undefined]);
  });
});
