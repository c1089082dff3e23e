/**
 * A host waits for a task without polling: `POST /tasks` names it in `Location`, and
 * `GET /tasks/:id?wait=` (and the MCP tools) answer once the task is ready or failed. A task is
 * created with its alarm taken away in the same step, so it stays pending until the test runs the
 * alarm; the test counts the wait in the Task object before it does, so nothing depends on when
 * the runtime would have fired it.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { readinessOf, TaskReadiness } from '../../durable-objects/task-readiness.ts';
import { getAgents } from '../../src/env.ts';
import { taskAgent } from '../../src/tasks/task-agent.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, checkedFetch, SETTLE_GUARD_MS } from '../support/api.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';
import { holdTaskAlarms, withoutFirstAttempt } from '../support/held-alarms.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';

const gitUrl = (name: string) => `http://127.0.0.1:${inject('gitHttpPort')}/${name}.git`;
const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

/** A task of acme's stored, its first attempt held and its alarm taken away in the same step: pending until `release`. */
async function heldTask(fields: { repo?: string; ref?: string } = {}): Promise<string> {
  const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: gitUrl('sample'), request: 'Explain the build.', ...fields });
  const agent = taskAgent(getAgents(), request);
  if (!agent.ok) throw new Error(agent.message);
  const id = env.TASKS.newUniqueId();
  await runInDurableObject(env.TASKS.get(id), async (task, state) => {
    // Answered once stored and armed (no index report, whose round trip would let the alarm in).
    await withoutFirstAttempt(() => task.create(request, agent.agent, { indexReport: 'with-assembly' }));
    await state.storage.deleteAlarm();
  });
  return id.toString();
}

/** Runs the task's alarm, as the runtime would have: its first attempt. */
const release = (id: string) => runInDurableObject(stubOf(id), (task) => task.alarm());
const waiting = (id: string) => runInDurableObject(stubOf(id), (_, state) => readinessOf(state).waiting);

/** Until `count` callers wait in the task's object; the guard only catches a hang. */
async function waitersReach(id: string, count: number): Promise<void> {
  const deadline = Date.now() + SETTLE_GUARD_MS;
  while ((await waiting(id)) !== count) {
    if (Date.now() > deadline) throw new Error(`task ${id} never had ${count} waiting callers`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('POST /tasks', () => {
  it('answers 202 with a Location that reads the task', async () => {
    const response = await checkedFetch('http://groundwork.test/tasks', {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}`, 'content-type': 'application/json' },
      body: JSON.stringify({ repo: gitUrl('sample'), request: 'Explain the build.' }),
    });
    expect(response.status).toBe(202);
    const { id } = await response.json<{ id: string }>();
    expect(response.headers.get('location')).toBe(`http://groundwork.test/tasks/${id}`);
    const read = await checkedFetch(String(response.headers.get('location')), { headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}` } });
    expect(TaskDescriptionSchema.parse(await read.json())).toMatchObject({ id });
  });
});

describe('GET /tasks/:id?wait=', () => {
  it('answers a pending task once it is ready, and not before: the wait is one caller in the object until the alarm settles it', async () => {
    const id = await heldTask();
    const answer = api('GET', `/tasks/${id}?wait=30`);
    await waitersReach(id, 1);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json).status).toBe('pending');
    await release(id);
    // The alarm's end answered the caller: it no longer waits, whatever its bound.
    expect(await waiting(id)).toBe(0);
    const settled = await answer;
    expect(settled.status).toBe(200);
    expect(TaskDescriptionSchema.parse(settled.json)).toMatchObject({ id, status: 'ready', turns: [{ turn: 0 }] });
  });

  it('answers a task that fails with its reason, as soon as it fails', async () => {
    const id = await heldTask({ ref: 'no-such-branch' });
    const answer = api('GET', `/tasks/${id}?wait=30`);
    await waitersReach(id, 1);
    await release(id);
    expect(await waiting(id)).toBe(0);
    const failed = TaskDescriptionSchema.parse((await answer).json);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.reason).toContain('no-such-branch');
  });

  it('keeps waiting through an attempt that will be retried, which is not an end', async () => {
    const id = await heldTask({ repo: gitUrl('_unavailable/retried') });
    // The retries' alarms (2 s, then 4 s) are held: each attempt runs from the object's own alarm
    // handler, as the runtime would run it once due, so no test time is spent on the backoff.
    const alarms = holdTaskAlarms();
    try {
      const answer = api('GET', `/tasks/${id}?wait=30`);
      await waitersReach(id, 1);
      expect(await alarms.run(stubOf(id))).toHaveLength(1);
      // The first attempt failed and armed a retry; the caller still waits for the end.
      expect(await waiting(id)).toBe(1);
      expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json)).toMatchObject({ status: 'pending', attempts: 1, reason: expect.stringContaining('retrying') });
      expect(await alarms.run(stubOf(id))).toHaveLength(1);
      expect(await waiting(id)).toBe(1);
      // The third attempt is the last; the wait answers at its end.
      await alarms.run(stubOf(id));
      expect(TaskDescriptionSchema.parse((await answer).json)).toMatchObject({ status: 'failed', attempts: 3 });
    } finally {
      alarms.release();
    }
  });

  it('answers at its bound with the task as it is, and leaves nothing waiting', async () => {
    const id = await heldTask();
    const bounded = await api('GET', `/tasks/${id}?wait=1`);
    expect(bounded.status).toBe(200);
    expect(TaskDescriptionSchema.parse(bounded.json).status).toBe('pending');
    expect(await waiting(id)).toBe(0);
    // Still held: the wait started nothing, and the next wait answers once the alarm runs.
    await release(id);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}?wait=0`)).json).status).toBe('ready');
  });

  it("answers a settled task, and another tenant's, at once without a waiting caller", async () => {
    const id = await heldTask();
    await release(id);
    const ready = api('GET', `/tasks/${id}?wait=30`);
    const stranger = api('GET', `/tasks/${id}?wait=30`, { tenant: 'globex' });
    expect((await ready).json).toMatchObject({ id, status: 'ready' });
    expect((await stranger).status).toBe(404);
    expect(await waiting(id)).toBe(0);
  });

  it('refuses a wait that is not whole seconds from 0 to 30, naming wait, and waits for nothing', async () => {
    const id = await heldTask();
    for (const wait of ['31', '-1', '1.5', '1e1', '0x1', ' 1', '', 'forever', '30&wait=1']) {
      const res = await api('GET', `/tasks/${id}?wait=${wait}`);
      expect(res.status, wait).toBe(400);
      expect(res.json.error?.message, wait).toMatch(/^wait: /);
    }
    expect(await waiting(id)).toBe(0);
  });
});

describe('the MCP tools', () => {
  let acme: McpConnection;
  beforeAll(async () => {
    acme = await connectMcp();
  });
  afterAll(async () => {
    await acme.close();
  });

  it("get_turn waits on the task's own notice for turn 0 and answers it once the alarm assembled it", async () => {
    const id = await heldTask();
    const answer = callTool(acme.client, 'get_turn', { taskId: id, turn: 0 });
    await waitersReach(id, 1);
    await release(id);
    expect(await waiting(id)).toBe(0);
    const turn = await answer;
    expect(turn.isError, turn.text).toBeFalsy();
    expect(turn.structured).toMatchObject({ taskId: id, status: 'ready', turn: 0, digest: expect.stringMatching(/^sha256:/) });
  });
});

describe('the readiness of a Task object', () => {
  afterEach(() => vi.useRealTimers());

  it('answers every waiting caller when the task settles, each at most once', async () => {
    const readiness = new TaskReadiness();
    const ends = [readiness.wait(10_000), readiness.wait(20_000)];
    expect(readiness.waiting).toBe(2);
    readiness.settle();
    expect(await Promise.all(ends)).toEqual(['settled', 'settled']);
    expect(readiness.waiting).toBe(0);
    readiness.settle();
  });

  it('ends a wait at its bound, never later than 30 s whatever was asked', async () => {
    vi.useFakeTimers();
    const readiness = new TaskReadiness();
    let ended: string | undefined;
    void readiness.wait(10 * 60_000).then((how) => (ended = how));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(ended).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe('bound');
    expect(readiness.waiting).toBe(0);
  });
});
