import { describe, expect, it } from 'vitest';
import { createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import { createUsageMeter } from '../../src/sources/github/usage-meter.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import type { ScopeConfig } from '../support/github-api-client.ts';

const fx = githubFixture();

async function sourceAt(config: ScopeConfig, floor?: number) {
  const scope = createApiScope();
  await scope.configure(config);
  const meter = createUsageMeter();
  const source = createGitHubSource({
    owner: fx.owner,
    repo: fx.repo,
    auth: tokenAuth(fx.token),
    baseUrl: scope.baseUrl,
    meter,
    ...(floor === undefined ? {} : { rateLimitFloor: floor }),
  });
  return { scope, meter, source };
}

describe('rate-limit accounting', () => {
  it('counts requests by kind, GraphQL points, and the budget GitHub says is left', async () => {
    const { meter, source } = await sourceAt({ rateLimitRemaining: { core: 4000, graphql: 3000 } });
    const plan = { dirs: [''], files: ['AGENTS.md'], walks: [] };
    const resolved = await source.resolve('main', { plan });
    if (resolved.status !== 'ok') throw new Error('resolve');
    const snapshot = source.snapshot(resolved.commit, { plan });
    expect(await snapshot.read('AGENTS.md', { maxBytes: 1024 })).toMatchObject({ status: 'ok' });
    expect(await snapshot.read('docs/guide.md', { maxBytes: 1024 })).toMatchObject({ status: 'ok' });
    expect(meter.read()).toEqual({
      requests: { rest: 2, graphql: 1, token: 0 },
      graphqlPoints: 1,
      remaining: {
        graphql: { remaining: 2999, resetAt: expect.stringMatching(/^\d{4}-/) },
        core: { remaining: 3998, resetAt: expect.stringMatching(/^\d{4}-/) },
      },
    });
  });
});

describe('below the floor of remaining budget', () => {
  it('skips optional reads that would spend a request, names why, and still reads what is needed', async () => {
    const { scope, source } = await sourceAt({ rateLimitRemaining: { core: 50 } }, 100);
    const snapshot = source.snapshot(fx.commits.head);
    expect(await snapshot.read('AGENTS.md', { maxBytes: 1024 })).toMatchObject({ status: 'ok' });
    const skipped = await snapshot.read('.agents/skills/skill-07/SKILL.md', { maxBytes: 1024, optional: true });
    expect(skipped).toEqual({
      status: 'skipped',
      path: '.agents/skills/skill-07/SKILL.md',
      reason: expect.stringMatching(/^skipped to keep GitHub API budget: 48 REST requests left, below the floor of 100/),
    });
    expect(await scope.count('/git/blobs/')).toBe(1);
  });
});
