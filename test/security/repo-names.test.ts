import { env } from 'cloudflare:workers';
import { listDurableObjectIds } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/sources/github/client.ts';
import { createGitHubSource, tokenAuth } from '../../src/sources/github/index.ts';
import { E2E_SLACK_WILDCARD_TEAM } from '../e2e/bindings.ts';
import { post, pullRequestOpened, signedDelivery, slashCommand, SLACK_URL, WEBHOOK_URL } from '../e2e/support.ts';
import { api } from '../support/api.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';
import { example } from '../triggers/support.ts';

const fx = githubFixture();
const taskCount = async () => (await listDurableObjectIds(env.TASKS)).length;

/** Names GitHub never gives an account or repository; `.` and `..` would change the API path. */
const BAD_NAMES: Array<[string, RegExp]> = [
  ['acme/..', /^repo: name must be a GitHub repository name, not '\.\.'/],
  ['acme/.', /^repo: name must be a GitHub repository name, not '\.'/],
  ['../widgets', /^repo: owner must be a GitHub account/],
  ['./widgets', /^repo: owner must be a GitHub account/],
  ['acme/%2e%2e', /^repo: name must be a GitHub repository name/],
  ['acme/.%2E', /^repo: name must be a GitHub repository name/],
  ['acme/..%2f', /^repo: name must be a GitHub repository name/],
  ['acme/../../orgs/acme', /^repo: must be owner\/name/],
  ['acme/widgets/..', /^repo: must be owner\/name/],
  ['acme/x?per_page=1', /^repo: name must be a GitHub repository name/],
  ['acme/x#y', /^repo: name must be a GitHub repository name/],
  ['acme\\..', /^repo: must be owner\/name/],
  ['-acme/widgets', /^repo: owner must be a GitHub account/],
  [`${'a'.repeat(40)}/widgets`, /^repo: owner must be a GitHub account/],
  [`acme/${'w'.repeat(101)}`, /^repo: name must be a GitHub repository name/],
  ['acme/wídgets', /^repo: name must be a GitHub repository name/],
  ['acme/．．', /^repo: name must be a GitHub repository name/],
  ['acme/widgets.git', /^repo: name must not end in \.git/],
  ['acme/widgets.wiki', /^repo: name must not end in \.wiki/],
];

describe('repository names in the REST API', () => {
  it.each(BAD_NAMES)('refuses %j with a 400 naming repo and creates no task', async (repo, message) => {
    const before = await taskCount();
    const res = await api('POST', '/tasks', { body: { repo, request: 'x' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(message) });
    expect(await taskCount()).toBe(before);
  });

  it('accepts names GitHub gives: dotfiles, dots inside, underscores, managed-user owners', async () => {
    // No GITHUB_TOKEN in the tests: a valid owner/name gets past validation to the 503 that names it.
    for (const repo of ['acme/.github', 'acme/a..b', 'acme/my_repo-2.0', 'mona_acme/x', 'legacy-/x', 'a/b']) {
      const res = await api('POST', '/tasks', { body: { repo, request: 'x' } });
      expect(res.status, repo).toBe(503);
    }
  });

  it.each(['..', 'main/../..', 'a:b', 'a~1', 'HEAD^', ' main', '.hidden', 'x.lock'])('refuses the ref %j with a 400 naming ref', async (ref) => {
    const res = await api('POST', '/tasks', { body: { repo: 'acme/widgets', ref, request: 'x' } });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toMatch(/^ref: /);
  });
});

describe('repository names in Slack commands', () => {
  it.each(['..', '.', '..#1', '..@main', '.%2e', '..:src'])('refuses owner/%s under an owner/* allowlist and creates no task', async (tail) => {
    const before = await taskCount();
    const ack = await post(SLACK_URL, await slashCommand(`${fx.owner}/${tail} explain the build`, `/commands/${crypto.randomUUID()}`, Date.now(), E2E_SLACK_WILDCARD_TEAM));
    expect(ack.status).toBe(200);
    const { text } = await ack.json<{ text: string }>();
    expect(text).toMatch(/must be a GitHub repository name|is not `owner\/repo/);
    expect(text).not.toContain('Assembling');
    expect(await taskCount()).toBe(before);
  });

  it('refuses a pull request number with leading zeros and a ref git would refuse', async () => {
    for (const [target, problem] of [
      [`${fx.owner}/${fx.repo}#01`, 'without leading zeros'],
      [`${fx.owner}/${fx.repo}@a..b`, 'is not a branch, tag or commit name'],
    ] as const) {
      const ack = await post(SLACK_URL, await slashCommand(`${target} explain`, `/commands/${crypto.randomUUID()}`, Date.now(), E2E_SLACK_WILDCARD_TEAM));
      expect((await ack.json<{ text: string }>()).text).toContain(problem);
    }
  });
});

describe('repository names in GitHub webhook payloads', () => {
  it.each([
    ['repository.name', (payload: ReturnType<typeof pullRequestOpened>) => (payload.repository.name = '..')],
    ['repository.owner.login', (payload: ReturnType<typeof pullRequestOpened>) => (payload.repository.owner.login = '..')],
    ['repository.full_name', (payload: ReturnType<typeof pullRequestOpened>) => (payload.repository.full_name = `${fx.owner}/..`)],
  ])('answers 400 naming %s when it is not a GitHub name, and creates no task', async (field, mangle) => {
    const payload = pullRequestOpened();
    mangle(payload);
    const before = await taskCount();
    const res = await post(WEBHOOK_URL, await signedDelivery(payload));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_request', message: expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}: `)) } });
    expect(await taskCount()).toBe(before);
  });

  it('stores no installation whose repository list holds a name GitHub never gives', async () => {
    const payload = example('installation_repositories', 'added');
    payload.installation.id = 777_123;
    payload.repositories_added = [{ id: 1, node_id: 'R', name: '..', full_name: 'acme/..', private: false }];
    const res = await post(WEBHOOK_URL, await signedDelivery(payload, { event: 'installation_repositories' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringMatching(/^repositories_added\[0\]\.full_name: name must be a GitHub repository name/) } });
    expect(await env.TENANTS.get('installation:777123')).toBeNull();
  });
});

describe('GitHub API paths', () => {
  it.each([
    ['repo', { owner: fx.owner, repo: '..', ref: 'main' }],
    ['owner', { owner: '..', repo: fx.repo, ref: 'main' }],
    ['ref', { owner: fx.owner, repo: fx.repo, ref: '..' }],
    ['ref', { owner: fx.owner, repo: fx.repo, ref: '.' }],
  ])('are never built from a %s that a URL would resolve to another route', async (_field, params) => {
    const scope = createApiScope();
    const octokit = createGitHubClient({ auth: tokenAuth(fx.token), baseUrl: scope.baseUrl });
    await expect(octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', params)).rejects.toThrow(/refused to request GET \/repos\/\{owner\}\/\{repo\}\/commits\/\{ref\}/);
    expect((await scope.stats()).count).toBe(0);
  });

  it('a GitHub source cannot be made for a name GitHub never gives, and resolves no ref git would refuse', async () => {
    const scope = createApiScope();
    expect(() => createGitHubSource({ owner: fx.owner, repo: '..', auth: tokenAuth(fx.token), baseUrl: scope.baseUrl })).toThrow(/not a GitHub repository/);
    const source = createGitHubSource({ owner: fx.owner, repo: fx.repo, auth: tokenAuth(fx.token), baseUrl: scope.baseUrl });
    // Permanent: no retry can make it a ref, so a task naming it fails at once.
    expect(await source.resolve('..')).toEqual({ status: 'failed', ref: '..', reason: 'invalid ref name: ".."', permanent: true });
    expect((await scope.stats()).count).toBe(0);
  });
});
