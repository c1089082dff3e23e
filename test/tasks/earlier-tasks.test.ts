/**
 * The earlier-tasks query of a tenant's TaskIndex object (through its real stub and SQLite), and
 * the reader the history provider gets over it.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { earlierTasksReader, type EarlierTasksIndex } from '../../src/tasks/earlier-tasks.ts';
import { taskIndexStub } from '../../src/tasks/durable-task-index.ts';
import { checkViewLink, signedViewUrl } from '../../src/tasks/view-link.ts';
import type { TaskIndexRow } from '../../src/tasks/task-index.ts';

const NOW = Date.now();
const id = (n: number) => n.toString(16).padStart(64, '0');

function row(n: number, overrides: Partial<TaskIndexRow> = {}): TaskIndexRow {
  return {
    taskId: id(n),
    tenant: 'api:acme',
    seq: 1,
    status: 'ready',
    reason: null,
    origin: 'github',
    repo: 'Acme/Widgets',
    agent: 'reviewer',
    request: `request ${n}`,
    commit: 'a'.repeat(40),
    createdAt: NOW - 100_000 + n * 1_000,
    updatedAt: NOW - 100_000 + n * 1_000 + 500,
    expiresAt: NOW + 86_400_000,
    ...overrides,
  };
}

async function indexWith(tenant: string, rows: TaskIndexRow[]) {
  const index = taskIndexStub(env, tenant);
  for (const one of rows) await index.record(one);
  return index;
}

describe('TaskIndex.earlier', () => {
  it("lists the pull request's tasks first, then the repository's, newest first, all created before the task and never it", async () => {
    const tenant = `api:earlier-${crypto.randomUUID()}`;
    const index = await indexWith(tenant, [
      row(1, { tenant, pullRequest: 7 }),
      row(2, { tenant }),
      row(3, { tenant, pullRequest: 8 }),
      row(4, { tenant, pullRequest: 7, repo: 'acme/widgets' }),
      row(5, { tenant, repo: 'acme/gadgets' }),
      row(6, { tenant, expiresAt: NOW - 1 }),
      // The task itself, and one created after it.
      row(9, { tenant, pullRequest: 7 }),
      row(10, { tenant, pullRequest: 7 }),
    ]);
    const before = { createdAt: row(9).createdAt, taskId: id(9) };
    const ids = (rows: TaskIndexRow[]) => rows.map((one) => one.taskId);
    expect(ids(await index.earlier({ repo: 'ACME/widgets', before, pullRequest: 7, limit: 5, now: NOW }))).toEqual([id(4), id(1), id(3), id(2)]);
    expect(ids(await index.earlier({ repo: 'acme/widgets', before, limit: 5, now: NOW }))).toEqual([id(4), id(3), id(2), id(1)]);
    expect(ids(await index.earlier({ repo: 'acme/widgets', before, pullRequest: 7, limit: 2, now: NOW }))).toEqual([id(4), id(1)]);
    // A retry asks with the same task: a task created meanwhile (10) is never in its list.
    const later = await indexWith(tenant, [row(11, { tenant, pullRequest: 7 })]);
    expect(ids(await later.earlier({ repo: 'acme/widgets', before, pullRequest: 7, limit: 5, now: NOW }))).toEqual([id(4), id(1), id(3), id(2)]);
  });
});

describe('earlier tasks across tenants and repositories', () => {
  it("never shows one tenant's or one repository's tasks to another, both ways, on the same pull request number", async () => {
    const run = crypto.randomUUID();
    const [installation, workspace] = [`github:${run}`, `slack:${run}`];
    // Pull request #7 of two repositories, asked about by an installation and by a Slack workspace.
    const widgets = row(1, { tenant: installation, repo: 'acme/widgets', pullRequest: 7 });
    const gadgets = row(2, { tenant: installation, repo: 'acme/gadgets', pullRequest: 7 });
    const asked = row(3, { tenant: workspace, repo: 'acme/widgets', pullRequest: 7 });
    await indexWith(installation, [widgets, gadgets]);
    await indexWith(workspace, [asked]);
    // Each reader is made as a Task object makes it: its own tenant's index, its own repository.
    const shown = async (tenant: string, repo: string, n: number) => {
      const subject = { taskId: id(n), tenant, repo, createdAt: row(n).createdAt, pullRequest: 7 };
      const found = await earlierTasksReader(taskIndexStub(env, tenant), subject, { now: () => NOW }).earlier({ limit: 20 });
      return found.map((one) => one.id);
    };
    expect(await shown(installation, 'acme/widgets', 10)).toEqual([widgets.taskId]);
    expect(await shown(installation, 'acme/gadgets', 11)).toEqual([gadgets.taskId]);
    expect(await shown(workspace, 'acme/widgets', 12)).toEqual([asked.taskId]);
    expect(await shown(workspace, 'acme/gadgets', 13)).toEqual([]);
  });
});

describe('earlierTasksReader', () => {
  const subject = { taskId: id(9), tenant: 'api:acme', repo: 'acme/widgets', createdAt: row(9).createdAt, pullRequest: 7 };

  it('asks the index once, when made, with `ahead`, and answers a question for at most as many from it', async () => {
    const tenant = `api:ahead-${crypto.randomUUID()}`;
    const stub = await indexWith(tenant, [1, 2, 3, 4].map((n) => row(n, { tenant, pullRequest: n % 2 === 0 ? 7 : undefined })));
    const queries: unknown[] = [];
    const index: EarlierTasksIndex = { earlier: (query) => (queries.push(query), stub.earlier(query)) };
    const own = { ...subject, tenant };
    const reader = earlierTasksReader(index, own, { now: () => NOW, ahead: 20 });
    expect(queries).toEqual([expect.objectContaining({ limit: 20, pullRequest: 7 })]);
    const plain = earlierTasksReader(stub, own, { now: () => NOW });
    for (const limit of [1, 3, 20]) expect(await reader.earlier({ limit })).toEqual(await plain.earlier({ limit }));
    expect(queries).toHaveLength(1);
    // More than it asked for is a question of its own.
    await reader.earlier({ limit: 21 });
    expect(queries).toEqual([expect.objectContaining({ limit: 20 }), expect.objectContaining({ limit: 21 })]);
  });

  it('reports a failed early question to the reader who asks, and to no one when no one asks', async () => {
    const index: EarlierTasksIndex = { earlier: () => Promise.reject(new Error('index unavailable')) };
    const unasked = earlierTasksReader(index, subject, { now: () => NOW, ahead: 20 });
    expect(unasked).toBeDefined();
    await expect(earlierTasksReader(index, subject, { now: () => NOW, ahead: 20 }).earlier({ limit: 5 })).rejects.toThrow('index unavailable');
  });

  it('drops any row of another tenant or of the task itself, whatever the index answers', async () => {
    const index: EarlierTasksIndex = { earlier: async () => [row(1), row(2, { tenant: 'api:globex' }), row(9), row(3, { tenant: 'slack:T1' })] };
    const earlier = await earlierTasksReader(index, subject, { origin: 'https://groundwork.example.com', now: () => NOW }).earlier({ limit: 5 });
    expect(earlier.map((one) => one.id)).toEqual([id(1)]);
  });

  it('maps a row to what the provider shows: the request excerpt, finish time, pull request and the plain page without a link secret', async () => {
    const long = `${'x'.repeat(999)}…`;
    const index: EarlierTasksIndex = {
      earlier: async () => [row(1, { pullRequest: 7, requestExcerpt: 'Review it.\nCarefully.' }), row(2, { status: 'assembling', requestExcerpt: long }), row(3)],
    };
    const [first, second, third] = await earlierTasksReader(index, subject, { origin: 'https://groundwork.example.com', now: () => NOW }).earlier({ limit: 5 });
    expect(first).toEqual({
      id: id(1),
      origin: 'github',
      request: 'Review it.\nCarefully.',
      requestCut: false,
      status: 'ready',
      reason: null,
      agent: 'reviewer',
      commit: 'a'.repeat(40),
      pullRequest: 7,
      createdAt: new Date(row(1).createdAt).toISOString(),
      finishedAt: new Date(row(1).updatedAt).toISOString(),
      viewUrl: `https://groundwork.example.com/tasks/${id(1)}/view`,
      viewUrlSigned: false,
    });
    expect(second).toMatchObject({ requestCut: true, finishedAt: null, pullRequest: null });
    // A row reported before excerpts were kept shows its preview.
    expect(third).toMatchObject({ request: 'request 3', requestCut: false });
    const unlinked = await earlierTasksReader(index, subject, { now: () => NOW }).earlier({ limit: 1 });
    expect(unlinked[0]?.viewUrl).toBeNull();
  });

  it('signs each page link to expire with its task, or the TTL after this task was created, the same on every read', async () => {
    const links = { secret: 'view-secret' };
    const index: EarlierTasksIndex = { earlier: async () => [row(1, { expiresAt: NOW + 86_400_000 }), row(2, { expiresAt: NOW + 3_600_000 })] };
    const read = (ttlHours: number | undefined, now: number) =>
      earlierTasksReader(index, subject, { origin: 'https://groundwork.example.com', links: { ...links, ...(ttlHours === undefined ? {} : { ttlHours }) }, now: () => now }).earlier({ limit: 5 });
    const [first, second] = await read(undefined, NOW);
    expect(first).toMatchObject({ viewUrlSigned: true, viewUrl: await signedViewUrl('https://groundwork.example.com', id(1), 'view-secret', Math.floor((NOW + 86_400_000) / 1000)) });
    expect(second?.viewUrl).toBe(await signedViewUrl('https://groundwork.example.com', id(2), 'view-secret', Math.floor((NOW + 3_600_000) / 1000)));
    // A retry an hour later renders the same bytes: the expiry is the tasks', not the clock's.
    expect(await read(undefined, NOW + 3_600_000)).toEqual([first, second]);
    // With a TTL, a day after this task was created if that is sooner than the earlier task's end.
    const [capped] = await read(2, NOW + 5_000);
    const exp = Math.floor((subject.createdAt + 2 * 3_600_000) / 1000);
    expect(capped?.viewUrl).toBe(await signedViewUrl('https://groundwork.example.com', id(1), 'view-secret', exp));
    // Each link opens its own task's page only.
    const query = new URL(String(first?.viewUrl)).searchParams;
    expect(await checkViewLink({ current: 'view-secret' }, id(1), query.get('exp') ?? '', query.get('sig') ?? '', NOW)).toMatchObject({ ok: true });
    expect(await checkViewLink({ current: 'view-secret' }, id(2), query.get('exp') ?? '', query.get('sig') ?? '', NOW)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });
});
