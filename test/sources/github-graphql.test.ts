import { describe, expect, it } from 'vitest';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import type { ApiScope, ScopeConfig } from '../support/github-api-client.ts';
import { assembleFromGitHub, comparable, type AssemblyCase } from '../support/github-assembly.ts';

const fx = githubFixture();

async function scoped(config: ScopeConfig = {}): Promise<ApiScope> {
  const scope = createApiScope();
  await scope.configure(config);
  return scope;
}

const cases: Array<[string, AssemblyCase]> = [
  ['the root of main', { ref: 'main' }],
  ['the deepest directory of the chain, selecting a skill', { ref: 'main', cwd: 'a/b/c/d/e', request: 'Use $skill-07 and $skill-30.' }],
  ['an annotated tag', { ref: 'v1', cwd: 'a/b' }],
  ['a pinned first commit as the reviewer', { ref: 'PINNED_FIRST', cwd: 'a', agent: 'reviewer' }],
  ['a directory with symlinks and binaries', { ref: 'main', cwd: 'docs' }],
  ['a missing working directory', { ref: 'main', cwd: 'not/there' }],
  ['CLAUDE.md first, which is a symlink to AGENTS.md', { ref: 'main', configs: { rules: { filenames: ['CLAUDE.md', 'AGENTS.md'] } } }],
  ['skills under ** with a selection by path', { ref: 'main', skills: ['.agents/skills/skill-03'], configs: { skills: { roots: ['.agents/**'] } } }],
  ['skills rooted at a file and at a missing directory', { ref: 'main', configs: { skills: { roots: ['AGENTS.md/*', 'nowhere/*'] } } }],
];

describe('GraphQL reads give the REST reads\' context, byte for byte', () => {
  it.each(cases)('%s', async (_, c) => {
    const at = { ...c, ref: c.ref === 'PINNED_FIRST' ? fx.commits.first : c.ref };
    // One scope for both: links in the context carry the API base URL.
    const scope = await scoped();
    const rest = await assembleFromGitHub(scope, 'rest', at);
    expect(await scope.count('/graphql')).toBe(0);
    const graphql = await assembleFromGitHub(scope, 'graphql', at);
    expect(comparable(graphql)).toEqual(comparable(rest));
    expect(await scope.count('/graphql')).toBe(1);
  });
});
