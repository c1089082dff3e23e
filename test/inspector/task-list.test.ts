import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { taskIndexStub } from '../../src/tasks/durable-task-index.ts';
import type { TaskIndexRow } from '../../src/tasks/task-index.ts';
import { signLink } from '../../src/tasks/view-link.ts';
import { E2E_VIEW_LINK_SECRET } from '../e2e/bindings.ts';
import { api, type Tenant } from '../support/api.ts';
import { holdTaskAlarms, type HeldAlarms } from '../support/held-alarms.ts';
import { holdTimers } from '../support/held-timers.ts';
import { warmWorker } from '../support/warm-worker.ts';
import { openPage, sampleRepo, textOf } from './support.ts';

const ListedSchema = z.object({
  tasks: z.array(z.object({ id: z.string(), tenant: z.string(), status: z.string(), origin: z.string(), repo: z.string(), request: z.string(), createdAt: z.string(), viewUrl: z.string().nullable() })),
  nextCursor: z.string().nullable(),
});
const movingRepo = () => `http://127.0.0.1:${inject('gitHttpPort')}/moving.git`;

// The tasks here are listed, not assembled: none assembles by itself, so the one a test begins is
// the only assembly under way, however loaded the machine.
let alarms: HeldAlarms;
beforeAll(async () => {
  alarms = holdTaskAlarms();
  await warmWorker();
});
afterAll(() => {
  alarms.release();
});

async function create(request: string, tenant: Tenant = 'acme', repo = sampleRepo()): Promise<string> {
  const created = await api('POST', '/tasks', { tenant, body: { repo, request } });
  expect(created.status).toBe(202);
  return String(created.json['id']);
}

async function list(query: string, tenant: Tenant = 'acme') {
  const res = await api('GET', `/tasks${query}`, { tenant });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return ListedSchema.parse(res.json);
}

/** Every page from the first, following nextCursor; `between` runs after each page. */
async function allPages(query: string, between: () => Promise<void> = async () => {}): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(page.tasks.map((task) => task.id));
    cursor = page.nextCursor;
    await between();
  } while (cursor);
  return pages;
}

describe('GET /tasks', () => {
  it('lists the tenant’s tasks newest first, each with its signed page link, and no other tenant’s', async () => {
    const first = await create('First task.');
    const second = await create('Second task.');
    const foreign = await create('Globex task.', 'globex');
    const { tasks } = await list('?limit=100');
    const ids = tasks.map((task) => task.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids).not.toContain(foreign);
    expect(tasks.find((task) => task.id === first)).toMatchObject({ tenant: 'api:acme', origin: 'api', repo: sampleRepo(), request: 'First task.', viewUrl: expect.stringContaining(`/tasks/${first}/view?exp=`) });
    const theirs = (await list('?limit=100', 'globex')).tasks;
    expect(theirs.map((task) => task.id)).toContain(foreign);
    expect(theirs.map((task) => task.id)).not.toContain(first);
    expect(theirs.every((task) => task.tenant === 'api:globex')).toBe(true);
  });

  it('pages never repeat or skip a task, even when tasks are created between pages', async () => {
    const before = await Promise.all(Array.from({ length: 5 }, (_, i) => create(`Paged task ${i}.`)));
    const expected = (await list('?limit=100')).tasks.map((task) => task.id);
    const created: string[] = [];
    const pages = await allPages('?limit=2', async () => {
      created.push(await create('Created while paging.'));
    });
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
    for (const id of before) expect(seen).toContain(id);
    for (const id of created) expect(seen).not.toContain(id);
    expect(pages.every((page) => page.length <= 2)).toBe(true);
    // A new first page starts with what was created meanwhile.
    expect((await list('?limit=1')).tasks[0]?.id).toBe(created.at(-1));
  });

  it('filters by status, origin and repository', async () => {
    const onMoving = await create('On the moving repository.', 'acme', movingRepo());
    const waiting = await create('Left pending.');
    // Begun here, so the answer comes when the task is ready. The assembly's deadline (15 s) is
    // held: this test is about the list, and a loaded machine can take longer than that to read
    // the repository (test/bounds proves the deadline).
    const deadline = holdTimers({ assembly: { from: 'src/lib/deadline.ts' } });
    try {
      const begun = await api('POST', `/tasks/${onMoving}/turns`, { body: { turn: 0 } });
      expect(begun.status, JSON.stringify(begun.json)).toBe(200);
    } finally {
      deadline.release();
    }
    const byRepo = await list(`?repo=${encodeURIComponent(movingRepo())}&limit=100`);
    expect(byRepo.tasks.map((task) => task.id)).toEqual([onMoving]);
    expect((await list('?status=ready&limit=100')).tasks.map((task) => task.id)).toEqual([onMoving]);
    const pending = (await list('?status=pending&limit=100')).tasks;
    expect(pending.map((task) => task.id)).toContain(waiting);
    expect(pending.map((task) => task.id)).not.toContain(onMoving);
    expect(pending.every((task) => task.status === 'pending')).toBe(true);
    expect((await list('?origin=slack&limit=100')).tasks).toEqual([]);
    expect((await list('?origin=api&limit=100')).tasks.map((task) => task.id)).toContain(onMoving);
  });

  it('refuses a bad query with a 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=1e1', 'limit'],
      ['?cursor=123', 'cursor'],
      ['?cursor=1-' + 'A'.repeat(64), 'cursor'],
      ['?status=done', 'status'],
      ['?origin=email', 'origin'],
      ['?colour=red', 'colour'],
      ['?status=ready&status=failed', 'status'],
      ['?repo=a%20b', 'repo'],
      ['?repo=acme/..', 'repo'],
      ['?repo=acme/x.git', 'repo'],
    ];
    for (const [query, field] of cases) {
      const res = await api('GET', `/tasks${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(new RegExp(`^${field}\\b`)) });
    }
    expect((await api('GET', '/tasks', { tenant: null })).status).toBe(401);
  });
});

describe('GET /view', () => {
  it('shows the task list to a token holder, each task linking to its signed page', async () => {
    const id = await create('Listed on the page <script>alert(1)</script>.');
    const page = await openPage('/view', { tenant: 'acme' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.html).toMatch(new RegExp(`href="http://groundwork\\.test/tasks/${id}/view\\?exp=\\d+&amp;sig=[0-9a-f]{64}"`));
    expect(textOf(page.html)).toContain('Listed on the page <script>alert(1)</script>.');
    expect(page.html).not.toContain('<script>');
  });

  it('needs a token, and answers a bad filter with a 400 page', async () => {
    expect((await openPage('/view')).status).toBe(401);
    const bad = await openPage('/view?status=done', { tenant: 'acme' });
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('status: must be one of');
  });

  it('links to older tasks with the same filters', async () => {
    for (let i = 0; i < 3; i++) await create(`Page link ${i}.`);
    const page = await openPage('/view?origin=api&limit=2', { tenant: 'acme' });
    const next = /<a href="(\/view\?[^"]+)">Older tasks<\/a>/.exec(page.html)?.[1]?.replace(/&amp;/g, '&');
    expect(next).toMatch(/^\/view\?origin=api&limit=2&cursor=\d+-[0-9a-f]{64}$/);
    expect((await openPage(next ?? '', { tenant: 'acme' })).status).toBe(200);
  });
});

describe('signed list links', () => {
  async function listLink(tenant: Tenant = 'acme'): Promise<string> {
    const res = await api('GET', '/tasks', { tenant });
    const viewUrl = String(res.json['viewUrl']);
    expect(viewUrl).toMatch(/^http:\/\/groundwork\.test\/view\?tenant=api%3A[a-z]+&exp=\d+&sig=[0-9a-f]{64}$/);
    return viewUrl;
  }

  it('GET /tasks answers a link that opens the tenant’s list in a browser for a day, and its pages keep it', async () => {
    const ours = await Promise.all([create('Ours one.'), create('Ours two.'), create('Ours three.')]);
    const theirs = await create('Theirs.', 'globex');
    const link = await listLink();
    const exp = Number(new URL(link).searchParams.get('exp'));
    expect(exp * 1000 - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);

    const page = await openPage(`${link}&limit=2`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(theirs);
    expect(page.html).toContain('<input type="hidden" name="sig"');
    const next = /<a href="(\/view\?[^"]+)">Older tasks<\/a>/.exec(page.html)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(new URL(next, 'http://x').searchParams.get('sig')).toBe(new URL(link).searchParams.get('sig'));
    const second = await openPage(next);
    expect(second.status).toBe(200);
    const shown = [page.html, second.html].join('');
    for (const id of ours.slice(0, 3)) expect(shown).toContain(`/tasks/${id}/view`);
  });

  it('refuses a list link for another tenant, an expired one, and a task link’s signature', async () => {
    const link = new URL(await listLink());
    const forged = new URL(link);
    forged.searchParams.set('tenant', 'api:globex');
    const refused = await openPage(forged.href);
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain('This link is not valid');

    const exp = Math.floor(Date.now() / 1000) - 1;
    const sig = await signLink(E2E_VIEW_LINK_SECRET, 'groundwork-list-link:v1', 'api:acme', exp);
    const expired = await openPage(`/view?tenant=api%3Aacme&exp=${exp}&sig=${sig}`);
    expect(expired.status).toBe(403);
    expect(textOf(expired.html)).toContain('This link has expired');

    const id = await create('A task whose link is not a list link.');
    const taskLink = new URL(String((await api('GET', `/tasks/${id}`)).json['viewUrl']));
    const crossed = await openPage(`/view?tenant=${id}&exp=${taskLink.searchParams.get('exp')}&sig=${taskLink.searchParams.get('sig')}`);
    expect(crossed.status).toBe(403);
    expect(crossed.html).not.toContain('A task whose link');
  });
});

describe('the task index of a tenant', () => {
  const row = (overrides: Partial<TaskIndexRow>): TaskIndexRow => ({
    taskId: 'c'.repeat(64),
    tenant: 'api:index-test',
    seq: 1,
    status: 'pending',
    reason: null,
    origin: 'api',
    repo: 'acme/widgets',
    agent: 'entry',
    request: 'Index me.',
    commit: null,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    expiresAt: Date.now() + 86_400_000,
    ...overrides,
  });

  it('keeps the report with the highest sequence number, whatever order reports arrive in', async () => {
    const index = taskIndexStub(env, 'api:index-test');
    expect(await index.record(row({ seq: 3, status: 'ready' }))).toBe('stored');
    expect(await index.record(row({ seq: 2, status: 'assembling' }))).toBe('stale');
    expect(await index.record(row({ seq: 3, status: 'failed' }))).toBe('stale');
    const listed = await index.list({ limit: 10, now: Date.now() });
    expect(listed.map((stored) => [stored.seq, stored.status])).toEqual([[3, 'ready']]);
  });

  it('lists no expired task, and matches GitHub names in any case', async () => {
    const index = taskIndexStub(env, 'api:index-expiry');
    await index.record(row({ taskId: 'd'.repeat(64), tenant: 'api:index-expiry', repo: 'Acme/Widgets' }));
    await index.record(row({ taskId: 'e'.repeat(64), tenant: 'api:index-expiry', expiresAt: Date.now() - 1 }));
    const listed = await index.list({ limit: 10, now: Date.now(), repo: 'acme/WIDGETS' });
    expect(listed.map((stored) => stored.taskId)).toEqual(['d'.repeat(64)]);
  });
});
