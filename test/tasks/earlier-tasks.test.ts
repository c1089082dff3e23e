/**
 * The earlier-tasks query of a tenant's TaskIndex object (through its real stub and SQLite), and
 * the reader the history provider gets over it.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { earlierTasksReader, type EarlierTasksIndex } from '../../src/tasks/earlier-tasks.ts';
import { taskIndexStub } from '../../src/tasks/durable-task-index.ts';
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

describe('earlierTasksReader', () => {
  const subject = { taskId: id(9), tenant: 'api:acme', repo: 'acme/widgets', createdAt: row(9).createdAt, pullRequest: 7 };

  it('drops any row of another tenant or of the task itself, whatever the index answers', async () => {
    const index: EarlierTasksIndex = { earlier: async () => [row(1), row(2, { tenant: 'api:globex' }), row(9), row(3, { tenant: 'slack:T1' })] };
    const earlier = await earlierTasksReader(index, subject, { origin: 'https://groundwork.example.com', now: () => NOW }).earlier({ limit: 5 });
    expect(earlier.map((one) => one.id)).toEqual([id(1)]);
  });

  it('maps a row to what the provider shows: the request excerpt, finish time, pull request and a plain inspector link', async () => {
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
    });
    expect(second).toMatchObject({ requestCut: true, finishedAt: null, pullRequest: null });
    // A row reported before excerpts were kept shows its preview.
    expect(third).toMatchObject({ request: 'request 3', requestCut: false });
    const unlinked = await earlierTasksReader(index, subject, { now: () => NOW }).earlier({ limit: 1 });
    expect(unlinked[0]?.viewUrl).toBeNull();
  });
});
