import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CHAIN, createApiScope, githubFixture, SKILL_COUNT } from '../support/github-api-client.ts';
import type { ApiScope, ScopeConfig } from '../support/github-api-client.ts';
import { assembleFromGitHub, comparable, type AssemblyCase } from '../support/github-assembly.ts';
import type { KeyValueStore } from '../../src/sources/key-value-store.ts';
import { requestWaves, type RequestWaves } from '../support/request-waves.ts';

const fx = githubFixture();
const DEEP: AssemblyCase = { ref: 'main', cwd: 'a/b/c/d/e', request: 'Use $skill-07.' };

/** A scope of its own, and the waves its requests are counted in (see request-waves): rounds are what requests waited for. */
async function scoped(config: ScopeConfig = {}): Promise<ApiScope & { waves: RequestWaves }> {
  const scope = createApiScope();
  await scope.configure(config);
  return Object.assign(scope, { waves: requestWaves() });
}

const assemble = (scope: ApiScope & { waves: RequestWaves }, reads: 'rest' | 'graphql', c: AssemblyCase, cache?: KeyValueStore) => assembleFromGitHub(scope, reads, c, cache, scope.waves.fetch);

async function requestsOf(scope: ApiScope & { waves: RequestWaves }) {
  const stats = await scope.stats();
  const count = (part: string) => stats.requests.filter((request) => request.path.includes(part)).length;
  return { rounds: scope.waves.rounds(), total: stats.count, graphql: count('/graphql'), blobs: count('/git/blobs/'), trees: count('/git/trees/'), commits: count('/commits/') };
}

describe('one GraphQL round trip for a cold assembly (rules chain of depth 5 + 30 skills)', () => {
  it('resolves the branch and reads every rule file and SKILL.md in one request', async () => {
    const scope = await scoped();
    const turn = await assemble(scope, 'graphql', DEEP);
    expect(turn.entries.filter((entry) => entry.provider === 'rules')).toHaveLength(CHAIN.length);
    expect(turn.messages.some((message) => message.content.includes('skill-30'))).toBe(true);
    expect(await requestsOf(scope)).toEqual({ rounds: 1, total: 1, graphql: 1, blobs: 0, trees: 0, commits: 0 });
  });

  it('costs the same one request from a pinned commit, where REST costs two rounds', async () => {
    const graphql = await scoped();
    await assemble(graphql, 'graphql', { ...DEEP, ref: fx.commits.head });
    expect(await requestsOf(graphql)).toMatchObject({ rounds: 1, total: 1 });
    const rest = await scoped();
    await assemble(rest, 'rest', { ...DEEP, ref: fx.commits.head });
    // Over REST the system provider's commit facts are one request more, in the tree's round, and
    // the root CLAUDE.md (a link to the AGENTS.md beside it, read for its verdict) one blob more.
    expect(await requestsOf(rest)).toMatchObject({ rounds: 2, total: 2 + CHAIN.length + SKILL_COUNT + 1 });
  });
});

describe('what one query cannot serve is read over REST in one more round, and only that', () => {
  it('reads texts GitHub truncated as blobs, with the same context', async () => {
    // 40 bytes keeps the rule files whole and cuts every SKILL.md.
    const cut = await scoped({ graphqlTextLimit: 40 });
    const turn = await assemble(cut, 'graphql', DEEP);
    expect(await requestsOf(cut)).toEqual({ rounds: 2, total: 1 + SKILL_COUNT, graphql: 1, blobs: SKILL_COUNT, trees: 0, commits: 0 });
    expect(comparable(turn)).toEqual(comparable(await assemble(cut, 'rest', DEEP)));
  });

  it('falls back to REST entirely when the server lacks a field (an older GitHub Enterprise Server)', async () => {
    const scope = await scoped({ graphqlSchema: 'legacy' });
    const legacy = await assemble(scope, 'graphql', DEEP);
    // `commits` counts the ref's resolution and the commit's facts (`git/commits/{sha}`), asked for with the tree.
    // Blobs: the chain's files, the root CLAUDE.md's link (read for its verdict) and the skills.
    expect(await requestsOf(scope)).toEqual({ rounds: 4, total: 2 + 2 + CHAIN.length + 1 + SKILL_COUNT, graphql: 1, blobs: CHAIN.length + 1 + SKILL_COUNT, trees: 1, commits: 2 });
    expect(comparable(legacy)).toEqual(comparable(await assemble(scope, 'rest', DEEP)));
  });

  it('lists directories below the query\'s nesting over REST (a ** root deeper than it)', async () => {
    const scope = await scoped();
    const c: AssemblyCase = { ref: fx.commits.head, configs: { skills: { roots: ['**'], maxDepth: 8 } } };
    const graphql = await assemble(scope, 'graphql', c);
    expect(await scope.count('/git/trees/')).toBe(1);
    expect(comparable(graphql)).toEqual(comparable(await assemble(scope, 'rest', c)));
  });
});

describe('warm reads through the KV cache', () => {
  it('costs nothing on a commit whose read-ahead and blobs are cached, and one request from a branch', async () => {
    // One scope throughout: links in the context carry the API base URL.
    const scope = await scoped();
    const first = await assemble(scope, 'graphql', { ...DEEP, ref: fx.commits.first }, env.CACHE);
    const cold = (await scope.stats()).count;
    const again = await assemble(scope, 'graphql', { ...DEEP, ref: fx.commits.first }, env.CACHE);
    expect((await scope.stats()).requests.slice(cold).map((request) => request.path)).toEqual([]);
    expect(again.digest).toBe(first.digest);
    await assemble(scope, 'graphql', { ...DEEP, ref: 'v1' }, env.CACHE);
    expect((await scope.stats()).requests.slice(cold).map((request) => request.path)).toEqual(['/graphql']);
  });

  it('reads a cached read-ahead with its blobs in one KV read: none per blob, and no blob looked up cold', async () => {
    const scope = await scoped();
    const gets: string[] = [];
    // Under a prefix of its own: the other tests here cache the same repository and commit.
    const own = `one-read-${crypto.randomUUID()}:`;
    const counting: KeyValueStore = { get: (key, type) => (gets.push(key), env.CACHE.get(own + key, type)), put: (key, value, options) => env.CACHE.put(own + key, value, options) };
    const kinds = (keys: string[]) => ({ partial: keys.filter((key) => key.startsWith('gw:partial:')).length, blobs: keys.filter((key) => key.startsWith('gw:blob:')).length });
    const first = await assemble(scope, 'graphql', { ...DEEP, ref: fx.commits.first }, counting);
    // Cold: the read-ahead's blobs were in hand, so none was looked up in KV.
    expect(kinds(gets)).toEqual({ partial: 1, blobs: 0 });
    const cold = gets.length;
    const before = (await scope.stats()).count;
    const again = await assemble(scope, 'graphql', { ...DEEP, ref: fx.commits.first }, counting);
    expect(again.digest).toBe(first.digest);
    expect((await scope.stats()).count).toBe(before);
    expect(kinds(gets.slice(cold))).toEqual({ partial: 1, blobs: 0 });
  });
});
