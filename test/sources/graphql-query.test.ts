/**
 * sources/github/graphql-query: each alias's selection is a named fragment written once, so the
 * read-ahead's text grows by an alias and a variable per planned read, not by the selection too.
 * The answers are held elsewhere (github-graphql, cached-read-aheads, the e2e pull request tests,
 * through the test server's graphql-js, which validates every query); here, the text's shape.
 */
import { describe, expect, it } from 'vitest';
import { readAheadQuery } from '../../src/sources/github/graphql-query.ts';
import type { DirectoryWalk, ReadPlan } from '../../src/sources/read-plan.ts';

function planOf(size: number): ReadPlan {
  const walk = (prefix: string, readFrom: number): DirectoryWalk => ({ prefix, depth: 2, read: ['SKILL.md'], readSuffixes: [], readFrom, unbounded: false });
  return {
    dirs: Array.from({ length: size }, (_, i) => `packages/p${i}`),
    files: Array.from({ length: size }, (_, i) => `packages/p${i}/AGENTS.md`),
    walks: Array.from({ length: size }, (_, i) => walk(`packages/p${i}/.agents/skills`, i % 2)),
  };
}

const textOf = (plan: ReadPlan) => readAheadQuery({ owner: 'acme', name: 'mono', rev: 'main', plan }).query;

describe('the read-ahead query', () => {
  it('defines each selection once, as a fragment every alias of its shape spreads', () => {
    const query = textOf(planOf(6));
    const definitions = [...query.matchAll(/^fragment (\w+) on (\w+) /gm)].map((match) => [match[1], match[2]]);
    expect(definitions).toEqual([
      ['At', 'Commit'],
      ['Listing', 'TreeEntry'],
      ['File', 'TreeEntry'],
      ['Walk2Text0', 'TreeEntry'],
      ['Walk2Text1', 'TreeEntry'],
    ]);
    for (const [name] of definitions.slice(1)) expect(query).toContain(`{ ...${name} }`);
    // No selection of a planned read spelled out in the aliases' fragment.
    const at = query.split('\n').find((line) => line.startsWith('fragment At '));
    expect(at).not.toMatch(/file\(path: \$\w+\) \{ name/);
    expect(at?.match(/\.\.\.Listing/g)).toHaveLength(6);
    expect(at?.match(/\.\.\.File/g)).toHaveLength(6);
  });

  it('grows by an alias and its variable per planned read', () => {
    const small = textOf(planOf(10));
    const large = textOf(planOf(110));
    // 300 more reads: `d17: file(path: $d17) { ...Listing }` and `$d17: String!, ` each.
    expect((large.length - small.length) / 300).toBeLessThan(60);
  });

  it('is the same text for the same plan, and names no path', () => {
    const plan = planOf(4);
    expect(textOf(plan)).toBe(textOf(planOf(4)));
    expect(textOf(plan)).not.toContain('packages/');
  });
});
