import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { getConfig } from '../../src/env.ts';
import { githubWebRoot } from '../../src/sources/github/location.ts';
import { KnowledgeSchema } from '../../src/context/knowledge.ts';
import { addYears } from '../../src/lib/utc-date.ts';
import { KnowledgeViewSchema } from '../../src/knowledge/results.ts';
import { api } from '../support/api.ts';
import { daysFromToday, listAll, remember, today } from './support.ts';

const REPO = 'acme/widgets';
/** Where this deployment's GitHub lives (the local GitHub API server's scope in these tests). */
const GITHUB_WEB = githubWebRoot(getConfig(env).GITHUB_API_URL);
const githubIdentity = (fullName: string) => `github:${new URL(GITHUB_WEB).host}/${fullName}`;
const COMMIT = 'c'.repeat(40);

describe('POST /knowledge', () => {
  it('stores a fact with its source and a default review date 90 days ahead, and answers 201 with the object', async () => {
    const res = await api('POST', '/knowledge', {
      body: { repo: REPO, kind: 'fact', statement: '  Deploys need AWS_REGION set.  ', source: { uri: 'https://github.com/acme/widgets/blob/x/docs/deploy.md', path: './docs//deploy.md', revision: COMMIT.toUpperCase() }, paths: ['services/api/', 'services/api', 'docs'] },
    });
    expect(res.status).toBe(201);
    const knowledge = KnowledgeSchema.parse(res.json);
    expect(knowledge).toEqual({
      id: expect.stringMatching(/^k_[0-9a-f]{64}_[0-9a-f]{16}$/),
      repository: githubIdentity('acme/widgets'),
      kind: 'fact',
      statement: 'Deploys need AWS_REGION set.',
      paths: ['services/api', 'docs'],
      source: { uri: 'https://github.com/acme/widgets/blob/x/docs/deploy.md', path: 'docs/deploy.md', revision: COMMIT },
      author: 'api:acme',
      createdAt: expect.any(String),
      reviewBy: daysFromToday(90),
      status: 'active',
      version: 1,
    });
    const read = await api('GET', `/knowledge/${knowledge.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(knowledge);
  });

  it('refuses knowledge without a source, naming source, and stores nothing', async () => {
    const repo = 'acme/no-source';
    const res = await api('POST', '/knowledge', { body: { repo, kind: 'fact', statement: 'Trust me.' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', message: 'source: is required: knowledge without a source is refused' });
    expect(await listAll(repo)).toEqual([]);
  });

  it.each([
    ['a review date in the past', { reviewBy: '2020-01-01' }, /^reviewBy: must not be in the past/],
    ['a review date more than a year ahead', { reviewBy: '2999-01-01' }, /^reviewBy: must be at most one year ahead/],
    ['a review date that is no date', { reviewBy: 'soon' }, /^reviewBy: must be an ISO date/],
    ['an empty statement', { statement: '   ' }, /^statement: must not be empty/],
    ['a statement over 4,000 characters', { statement: 'x'.repeat(4_001) }, /^statement: must be at most 4000 characters/],
    ['an unknown kind', { kind: 'rumour' }, /^kind: /],
    ['a source uri with credentials', { source: { uri: 'https://user:pw@wiki.example.test/page' } }, /^source\.uri: must not hold credentials/],
    ['a source uri without a scheme', { source: { uri: 'wiki page 4' } }, /^source\.uri: must be a URI with a scheme/],
    ['a source revision that is a branch', { source: { uri: 'https://x.test/', path: 'a.md', revision: 'main' } }, /^source\.revision: must be a 40-hex commit/],
    ['a path escaping the repository', { paths: ['../etc'] }, /^paths\[0\]: path escapes the repository root/],
    ['the root as a path', { paths: ['./'] }, /^paths\[0\]: names the repository root/],
    ['an unknown field', { tags: ['x'] }, /^\(root\)|tags/],
    ['no repo', { repo: undefined }, /^repo: /],
  ])('refuses %s with 400 naming the field', async (_label, change, message) => {
    const repo = `acme/refused-${crypto.randomUUID().slice(0, 8)}`;
    const res = await api('POST', '/knowledge', { body: { repo, kind: 'fact', statement: 'A statement.', source: { uri: 'https://wiki.example.test/' }, ...change } });
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe('bad_request');
    expect(res.json.error?.message).toMatch(message);
    expect(await listAll(repo)).toEqual([]);
  });

  it('accepts a review date today and exactly one year ahead', async () => {
    expect((await remember({ repo: REPO, statement: 'Due today.', reviewBy: today() })).reviewBy).toBe(today());
    const latest = addYears(today(), 1);
    expect((await remember({ repo: REPO, statement: 'Due in a year.', reviewBy: latest })).reviewBy).toBe(latest);
  });

  it('keeps one scope per repository however it is named', async () => {
    const a = await remember({ repo: 'Acme/Gadgets', statement: 'Named as owner/name.' });
    const b = await remember({ repo: `${GITHUB_WEB.replace('://', '://reader:token@')}/acme/gadgets.git`, statement: 'Named by URL with credentials.' });
    const c = await remember({ repo: `${GITHUB_WEB}/ACME/gadgets/`, statement: 'Named by URL with a slash.' });
    expect(new Set([a, b, c].map((k) => k.repository))).toEqual(new Set([githubIdentity('acme/gadgets')]));
    expect(new Set([a, b, c].map((k) => k.id.slice(0, 66))).size).toBe(1);
    expect((await listAll('acme/gadgets')).map((k) => k.id).sort()).toEqual([a.id, b.id, c.id].sort());

    // Another git host this deployment allows (GIT_ALLOWED_HOSTS is loopback in these tests).
    const git = await remember({ repo: 'http://127.0.0.1:9/team/app.git', statement: 'On another host.' });
    expect(git.repository).toBe('http://127.0.0.1:9/team/app');
    expect((await listAll('http://u:p@127.0.0.1:9/team/app/')).map((k) => k.id)).toEqual([git.id]);
  });

  it('keeps every local repository in a scope of its own, and refuses names a task would refuse, naming repo', async () => {
    const one = await remember({ repo: 'file:///srv/checkouts/one', statement: 'Only about checkout one.' });
    const two = await remember({ repo: 'file:///srv/checkouts/two', statement: 'Only about checkout two.' });
    expect([one.repository, two.repository]).toEqual(['file:///srv/checkouts/one', 'file:///srv/checkouts/two']);
    expect(one.id.slice(0, 66)).not.toBe(two.id.slice(0, 66));
    // Other files of this runner may have stored knowledge here too: each scope holds its own, never the other's.
    const inOne = (await listAll('file:///srv/checkouts/one')).map((k) => k.id);
    const inTwo = (await listAll('file:///srv/checkouts/two')).map((k) => k.id);
    expect([inOne.includes(one.id), inOne.includes(two.id), inTwo.includes(two.id), inTwo.includes(one.id)]).toEqual([true, false, true, false]);
    for (const [repo, message] of [
      ['file:///srv/checkouts/three', 'repo: file:/// repositories are readable only on the local instance `groundwork run` starts for them'],
      ['acme/..', "repo: name must be a GitHub repository name, not '..'"],
      ['acme/widgets.git', 'repo: name must not end in .git (GitHub gives no repository such a name)'],
      ['https://evil.test/team/app.git', 'repo: evil.test is not an allowed git host on this deployment'],
    ] as const) {
      const body = { repo, kind: 'fact', statement: 'Refused.', source: { uri: 'https://x.test/' } };
      for (const res of [await api('POST', '/knowledge', { body }), await api('GET', `/knowledge?${new URLSearchParams({ repo })}`)]) {
        expect(res.status, repo).toBe(400);
        expect(res.json.error, repo).toMatchObject({ code: 'bad_request', message });
      }
    }
  });
});

describe('versions and retirement', () => {
  it('makes a new version on PATCH, keeps the old one, and refuses to edit a replaced version', async () => {
    const repo = 'acme/versions';
    const first = await remember({ repo, statement: 'Use Node 18.', paths: ['tools'], source: { uri: 'https://x.test/a', path: 'package.json', revision: COMMIT } });
    const patched = await api('PATCH', `/knowledge/${first.id}`, { body: { statement: 'Use Node 22.', reviewBy: daysFromToday(30) } });
    expect(patched.status).toBe(200);
    const second = KnowledgeSchema.parse(patched.json);
    expect(second).toMatchObject({ statement: 'Use Node 22.', paths: ['tools'], source: first.source, version: 2, supersedes: first.id, status: 'active', reviewBy: daysFromToday(30), repository: first.repository, kind: 'fact' });
    expect(second.id).not.toBe(first.id);

    expect(KnowledgeViewSchema.parse((await api('GET', `/knowledge/${first.id}`)).json)).toEqual({ ...first, supersededBy: second.id });
    expect((await listAll(repo)).map((k) => k.id)).toEqual([second.id]);

    const stale = await api('PATCH', `/knowledge/${first.id}`, { body: { statement: 'Use Node 20.' } });
    expect(stale.status).toBe(409);
    expect(stale.json.error?.message).toBe(`${first.id} is not the current version: ${second.id} replaced it; change that one`);

    const cleared = KnowledgeSchema.parse((await api('PATCH', `/knowledge/${second.id}`, { body: { paths: [] } })).json);
    expect(cleared).toMatchObject({ version: 3, statement: 'Use Node 22.', reviewBy: daysFromToday(90) });
    expect(cleared.paths).toBeUndefined();

    const versions = await api('GET', `/knowledge/${second.id}/versions`);
    expect(versions.status).toBe(200);
    expect(KnowledgeViewSchema.array().parse(versions.json['versions']).map((v) => [v.version, v.supersededBy])).toEqual([
      [1, second.id],
      [2, cleared.id],
      [3, undefined],
    ]);
  });

  it('refuses an empty PATCH and a bad field, making no version', async () => {
    const k = await remember({ repo: 'acme/patch-checks', statement: 'Stable.' });
    const empty = await api('PATCH', `/knowledge/${k.id}`, { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.error?.message).toBe('(root): name at least one of statement, paths, source, reviewBy');
    const past = await api('PATCH', `/knowledge/${k.id}`, { body: { reviewBy: '2001-01-01' } });
    expect(past.json.error?.message).toMatch(/^reviewBy: must not be in the past/);
    expect((await listAll('acme/patch-checks')).map((v) => v.version)).toEqual([1]);
  });

  it('retires the current version with a reason, lists it as retired, and refuses to change it again', async () => {
    const repo = 'acme/retire';
    const k = await remember({ repo, statement: 'The cache is Redis.' });
    const keep = await remember({ repo, statement: 'Tests run with vitest.' });
    const missingReason = await api('POST', `/knowledge/${k.id}/retire`, { body: {} });
    expect(missingReason.status).toBe(400);
    expect(missingReason.json.error?.message).toMatch(/^reason: /);

    const res = await api('POST', `/knowledge/${k.id}/retire`, { body: { reason: 'Moved to KV in March.' } });
    expect(res.status).toBe(200);
    const retired = KnowledgeSchema.parse(res.json);
    expect(retired).toMatchObject({ status: 'retired', retiredReason: 'Moved to KV in March.', version: 2, supersedes: k.id, statement: k.statement, reviewBy: k.reviewBy });

    expect((await listAll(repo, 'active')).map((v) => v.id)).toEqual([keep.id]);
    expect((await listAll(repo, 'retired')).map((v) => v.id)).toEqual([retired.id]);
    expect((await listAll(repo)).map((v) => v.id).sort()).toEqual([keep.id, retired.id].sort());

    const again = await api('POST', `/knowledge/${retired.id}/retire`, { body: { reason: 'Twice.' } });
    expect(again.status).toBe(409);
    expect(again.json.error?.message).toBe(`${retired.id} is retired (Moved to KV in March.); record new knowledge instead`);
    expect((await api('PATCH', `/knowledge/${retired.id}`, { body: { statement: 'Back.' } })).status).toBe(409);
  });
});

describe('GET /knowledge', () => {
  it('pages through every current version exactly once, newest first, while new knowledge arrives', async () => {
    const repo = 'acme/pages';
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await remember({ repo, statement: `Fact ${i}.` }));
    const first = await api('GET', `/knowledge?repo=${repo}&limit=3`);
    expect(first.status).toBe(200);
    const seen = KnowledgeSchema.array().parse(first.json['items']).map((k) => k.id);
    // Written while the client pages: it is newer than the first page, so it never shows up later.
    await remember({ repo, statement: 'Arrived mid-listing.' });
    let cursor = first.json['nextCursor'] as string | null;
    while (cursor) {
      const page = await api('GET', `/knowledge?repo=${repo}&limit=3&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...KnowledgeSchema.array().parse(page.json['items']).map((k) => k.id));
      cursor = page.json['nextCursor'] as string | null;
    }
    expect(seen).toEqual(made.map((k) => k.id).reverse());
  });

  it('lists what is due for review within two weeks, soonest first', async () => {
    const repo = 'acme/due';
    const later = await remember({ repo, statement: 'Far.', reviewBy: daysFromToday(60) });
    const soon = await remember({ repo, statement: 'Soon.', reviewBy: daysFromToday(10) });
    const now = await remember({ repo, statement: 'Now.', reviewBy: today() });
    expect((await listAll(repo, 'due')).map((k) => k.id)).toEqual([now.id, soon.id]);
    expect((await listAll(repo, 'due', 'acme', 1)).map((k) => k.id)).toEqual([now.id, soon.id]);
    expect((await listAll(repo, 'active')).map((k) => k.id)).toEqual([now.id, soon.id, later.id]);
  });

  it('refuses a missing repo, an unknown status and a cursor from another listing, naming the parameter', async () => {
    expect((await api('GET', '/knowledge')).json.error?.message).toMatch(/^repo: /);
    expect((await api('GET', `/knowledge?repo=${REPO}&status=stale`)).json.error?.message).toBe('status: must be one of active, retired, due');
    expect((await api('GET', `/knowledge?repo=${REPO}&cursor=nonsense`)).json.error?.message).toBe('cursor: is not a cursor this list returned');
    await remember({ repo: 'acme/cursors', statement: 'One.', reviewBy: today() });
    await remember({ repo: 'acme/cursors', statement: 'Two.', reviewBy: today() });
    const due = await api('GET', '/knowledge?repo=acme/cursors&status=due&limit=1');
    const res = await api('GET', `/knowledge?repo=acme/cursors&status=active&cursor=${String(due.json['nextCursor'])}`);
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe('cursor: was returned for status=due, not status=active');
  });

  it('answers 405 naming the allowed methods', async () => {
    const res = await api('DELETE', '/knowledge');
    expect(res.status).toBe(405);
    expect(res.json.error?.message).toBe('DELETE is not allowed on /knowledge; use GET, POST');
  });
});
