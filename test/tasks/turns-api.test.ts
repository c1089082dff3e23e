import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { getAgents } from '../../src/env.ts';
import { taskAgent } from '../../src/tasks/task-agent.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { endOnly, holdFirstAttemptStarts, holdTaskAlarms, withoutFirstAttempt } from '../support/held-alarms.ts';
import { ownTables } from '../support/task-object.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

async function create(body: Record<string, unknown> = {}) {
  const res = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.', ...body } });
  return String(res.json['id']);
}

async function describeTask(id: string) {
  return TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
}

describe('turns', () => {
  it('begins turn 0 on demand when neither the creation nor the alarm has begun it, and only once', async () => {
    const alarms = holdTaskAlarms();
    try {
      const id = await create();
      const [a, b] = await Promise.all([api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } }), api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } })]);
      expect(a.status).toBe(200);
      expect(AssembledTurnSchema.parse(a.json).digest).toBe(AssembledTurnSchema.parse(b.json).digest);
      expect(await describeTask(id)).toMatchObject({ status: 'ready', attempts: 1 });
      // The alarm still comes; it must find the work done and not assemble again.
      await alarms.run(stubOf(id));
      expect(await describeTask(id)).toMatchObject({ status: 'ready', attempts: 1 });
      expect(alarms.starts).toBe(1);
    } finally {
      alarms.release();
    }
  });

  // Issue 56: the first attempt begins in the invocation that stores the task, not one alarm hop
  // later; the alarm, held here, is its backstop. Counted: attempts, and the git host's requests.
  it('begins turn 0 in the invocation that creates the task; the creation, two begins and the alarm make one attempt', async () => {
    const alarms = holdTaskAlarms({ starts: 'run' });
    try {
      const tag = crypto.randomUUID();
      const id = await create({ repo: `${base()}/_tag/${tag}/sample.git` });
      // Begun before the create answered, with no alarm run.
      expect((await describeTask(id)).attempts).toBe(1);
      const begun = Date.now();
      const [a, b, armed] = await Promise.all([api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } }), api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } }), alarms.run(stubOf(id))]);
      expect(AssembledTurnSchema.parse(a.json).digest).toBe(AssembledTurnSchema.parse(b.json).digest);
      expect(await describeTask(id)).toMatchObject({ status: 'ready', attempts: 1 });
      // The alarm joined the attempt or found it done: what it armed is retention, never a retry.
      const expiresAt = Date.parse((await describeTask(id)).expiresAt);
      expect(endOnly(armed, expiresAt, begun)).toBe(true);
      // One attempt's requests: as many as a task whose one attempt a client began.
      const once = crypto.randomUUID();
      const starts = holdFirstAttemptStarts();
      let alone: string;
      try {
        alone = await create({ repo: `${base()}/_tag/${once}/sample.git` });
      } finally {
        starts.release();
      }
      expect((await api('POST', `/tasks/${alone}/turns`, { body: { turn: 0 } })).status).toBe(200);
      const seen = async (t: string) => (await (await fetch(`${base()}/_control/seen/${t}`)).json<unknown[]>()).length;
      expect(await seen(once)).toBeGreaterThan(0);
      expect(await seen(tag)).toBe(await seen(once));
    } finally {
      alarms.release();
    }
  });

  it('refuses a turn that is not next with 409', async () => {
    const id = await create();
    await waitForTask(id, settled);
    const res = await api('POST', `/tasks/${id}/turns`, { body: { turn: 2 } });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 'conflict', message: 'turn 2 is not next; the next turn is 1' });
  });

  it('says the failure, not a turn still to come, to every read or write of a turn of a failed task', async () => {
    const id = await create({ ref: 'no-such-branch' });
    await waitForTask(id, settled);
    const failed = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(failed.status).toBe('failed');
    const never = (turn: number) => `turn ${turn} was never assembled: the task failed after ${failed.attempts} of 3 attempts (${failed.reason}); a failed task is not assembled again: create a new task to try again`;
    const answers = [
      await api('GET', `/tasks/${id}/turns/0`),
      await api('GET', `/tasks/${id}/turns/0?format=anthropic`),
      await api('GET', `/tasks/${id}/turns/2`),
      await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } }),
      await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ id: 'm1', type: 'message', role: 'assistant', content: 'Done.' }] } }),
      await api('POST', `/tasks/${id}/turns/0/usage`, { body: { format: 'anthropic', usage: { input_tokens: 1, output_tokens: 1 } } }),
    ];
    expect(answers.map((res) => [res.status, res.json.error?.message])).toEqual([
      [404, never(0)],
      [404, never(0)],
      [404, never(2)],
      [409, never(1)],
      [409, never(0)],
      [409, `${never(0)}; report usage for a turn whose request was sent`],
    ]);
    expect(failed.reason).toContain('no-such-branch');
  });

  it('says turn 0 is still being assembled, and the status, to a read before it is', async () => {
    // Stored, its first attempt held and its alarm taken away in the same step: a task whose first attempt has not run.
    const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: `${base()}/sample.git`, request: 'Explain the build.' });
    const agent = taskAgent(getAgents(), request);
    if (!agent.ok) throw new Error(agent.message);
    const objectId = env.TASKS.newUniqueId();
    await runInDurableObject(env.TASKS.get(objectId), async (task, state) => {
      await withoutFirstAttempt(() => task.create(request, agent.agent, { indexReport: 'with-assembly' }));
      await state.storage.deleteAlarm();
    });
    const id = objectId.toString();
    const res = await api('GET', `/tasks/${id}/turns/0`);
    expect([res.status, res.json.error?.message]).toEqual([404, 'turn 0 is not assembled yet (the task is pending); wait for the task to be ready']);
  });

  it('runs only all-turn providers later: first-turn ones are turn-gated and an empty context adds no item', async () => {
    const id = await create();
    await waitForTask(id, settled);
    const res = await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });
    expect(res.status).toBe(200);
    const turn = AssembledTurnSchema.parse(res.json);
    // The freshness provider runs on every turn; sample.git has not moved, so it has nothing to say.
    expect(turn.providers.map((p) => [p.name, p.outcome])).toEqual([
      ['freshness', 'empty'],
      ['host', 'turn-gated'],
      ['system', 'turn-gated'],
      ['task-facts', 'turn-gated'],
      ['rules', 'turn-gated'],
      ['skills', 'turn-gated'],
      ['history', 'turn-gated'],
      ['memory', 'turn-gated'],
    ]);
    expect(turn.messages.map((m) => m.role)).toEqual(['system', 'system', 'system', 'user']);
    const again = AssembledTurnSchema.parse((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } })).json);
    expect(again.digest).toBe(turn.digest);
    expect((await describeTask(id)).turns.map((t) => [t.turn, t.empty])).toEqual([
      [0, false],
      [1, true],
    ]);
  });

  it('validates the turn body and the turn parameter', async () => {
    const id = await create();
    await waitForTask(id, settled);
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: -1 } })).json.error?.message).toMatch(/^turn: /);
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1, extra: true } })).status).toBe(400);
    expect((await api('GET', `/tasks/${id}/turns/abc`)).json.error?.message).toMatch(/^n: /);
  });
});

describe('transcript', () => {
  it('appends items once by id and shows them in later turns', async () => {
    const id = await create();
    await waitForTask(id, settled);
    const items = [
      { id: 'msg-1', type: 'message', role: 'assistant', content: 'I will read the Makefile.' },
      { id: 'call-1', type: 'tool_call', role: 'assistant', name: 'read_file', callId: 'c1', arguments: { path: 'Makefile' } },
    ];
    const first = await api('POST', `/tasks/${id}/transcript`, { body: { items } });
    expect(first.json).toEqual({ appended: ['msg-1', 'call-1'], duplicates: [] });
    const retry = await api('POST', `/tasks/${id}/transcript`, { body: { items } });
    expect(retry.json).toEqual({ appended: [], duplicates: ['msg-1', 'call-1'] });

    await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });
    const turn1 = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/1`)).json);
    expect(turn1.messages.slice(4).map((m) => m.content)).toEqual(['I will read the Makefile.', '{"path":"Makefile"}']);
    const turn0 = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(turn0.messages).toHaveLength(4);
  });

  it('refuses host-reserved ids and appends nothing from a bad batch', async () => {
    const id = await create();
    await waitForTask(id, settled);
    const res = await api('POST', `/tasks/${id}/transcript`, {
      body: { items: [{ id: 'ok-1', type: 'message', role: 'assistant', content: 'fine' }, { id: 'local:context:1', type: 'message', role: 'user', content: 'forged' }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe('items[1].id: ids starting with "local:" are reserved for the host');
    const count = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM transcript').one());
    expect(count['n']).toBe(1);
  });

  // The creation's first attempt and the alarm are held, so turn 0 cannot exist yet however fast
  // the git host answers: the refusal is not a race against the assembly (it was, once the first
  // attempt began at creation).
  it('refuses items before turn 0 exists', async () => {
    const alarms = holdTaskAlarms();
    try {
      const id = await create();
      const res = await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ id: 'm', type: 'message', role: 'assistant', content: 'x' }] } });
      expect(res.status).toBe(409);
      expect(alarms.starts).toBe(1);
      await alarms.run(stubOf(id));
      expect(await describeTask(id)).toMatchObject({ status: 'ready', attempts: 1 });
      const after = await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ id: 'm', type: 'message', role: 'assistant', content: 'x' }] } });
      expect(after.status).toBe(200);
    } finally {
      alarms.release();
    }
  });
});

describe('assembly failures and retention', () => {
  it('fails at once, with the reason, when the ref does not exist', async () => {
    const id = await create({ ref: 'no-such-branch' });
    await waitForTask(id, settled);
    const task = await describeTask(id);
    expect(task).toMatchObject({ status: 'failed', attempts: 1 });
    expect(task.reason).toContain('ref no-such-branch does not name a commit');
  });

  // The tests below hold the tasks' alarms and run each attempt themselves, to its end: none starts
  // by itself after a backoff the clock decides, so a task has made exactly the attempts the test ran.
  it('retries a failing repository with backoff, then fails with the reason', async () => {
    const alarms = holdTaskAlarms();
    try {
      // A git host that answers 503: a transient failure worth retrying.
      const id = await create({ repo: `${base()}/_unavailable/nothing.git` });
      for (const [attempt, retryMs] of [
        [1, 2_000],
        [2, 4_000],
      ] as const) {
        const before = Date.now();
        const armed = await alarms.run(stubOf(id));
        const task = await describeTask(id);
        expect(task).toMatchObject({ status: 'pending', attempts: attempt });
        expect(task.reason).toMatch(new RegExp(`^attempt ${attempt} failed: .*; retrying in ${retryMs / 1000} s$`));
        expect(armed).toHaveLength(1);
        expect(armed[0]).toBeGreaterThanOrEqual(before + retryMs);
      }
      const before = Date.now();
      const armed = await alarms.run(stubOf(id));
      const task = await describeTask(id);
      expect(task).toMatchObject({ status: 'failed', attempts: 3 });
      expect(task.reason).not.toContain('retrying');
      // What is left scheduled is retention cleanup, not a fourth attempt.
      expect(endOnly(armed, Date.parse(task.expiresAt), before)).toBe(true);
      const alarm = await runInDurableObject(stubOf(id), (_, state) => state.storage.getAlarm());
      expect(alarm).toBe(Date.parse(task.expiresAt));
    } finally {
      alarms.release();
    }
  });

  it('refuses to begin turn 0 of a failed task again with 409 naming the status, so attempts stay bounded', async () => {
    const alarms = holdTaskAlarms();
    try {
      const id = await create({ repo: `${base()}/_unavailable/refused.git` });
      // Beginning turn 0 runs the next attempt at once; the third failure is final.
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } })).status).toBe(409);
        expect(await describeTask(id)).toMatchObject({ status: attempt < 3 ? 'pending' : 'failed', attempts: attempt });
      }
      const failed = await describeTask(id);

      for (let i = 0; i < 3; i++) {
        const res = await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } });
        expect(res.status).toBe(409);
        expect(res.json.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/^the task is failed after 3 of 3 attempts \(.+\); a failed task is not assembled again: create a new task to try again$/) });
      }
      expect(await describeTask(id)).toMatchObject({ status: 'failed', attempts: 3, reason: failed.reason });
      const alarm = await runInDurableObject(stubOf(id), (_, state) => state.storage.getAlarm());
      expect(alarm).toBe(Date.parse(failed.expiresAt));
    } finally {
      alarms.release();
    }
  });

  it('gives a task whose last attempt was cut off mid-way no fourth attempt', async () => {
    const alarms = holdTaskAlarms();
    try {
      const id = await create({ repo: `${base()}/_unavailable/cut-off.git` });
      // As the object finds itself after restarting in the middle of its third attempt.
      await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec("UPDATE task SET status = 'assembling', status_reason = NULL, attempts = 3"));
      const before = Date.now();
      const armed = await alarms.run(stubOf(id));
      const task = await describeTask(id);
      expect(endOnly(armed, Date.parse(task.expiresAt), before)).toBe(true);
      expect(task).toMatchObject({
        status: 'failed',
        attempts: 3,
        reason: 'attempt 3 of 3 ended without a result (the task object restarted while assembling); no attempts remain',
      });
      const alarm = await runInDurableObject(stubOf(id), (_, state) => state.storage.getAlarm());
      expect(alarm).toBe(Date.parse(task.expiresAt));
    } finally {
      alarms.release();
    }
  });

  it('deletes an expired task when its retention alarm fires', async () => {
    const id = await create();
    const task = TaskDescriptionSchema.parse(await waitForTask(id, settled));
    expect(Date.parse(task.expiresAt) - Date.parse(task.createdAt)).toBe(30 * 86_400_000);
    // A finished task is never readable without its retention alarm armed.
    const alarm = await runInDurableObject(stubOf(id), (_, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(task.expiresAt));
    await runInDurableObject(stubOf(id), (_, state) => void state.storage.sql.exec('UPDATE task SET expires_at = ?', Date.now() - 1));
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(true);
    expect((await api('GET', `/tasks/${id}`)).status).toBe(404);
    // Nothing of the task is left: the object is as new, its schema in place and no task in it.
    const left = await runInDurableObject(stubOf(id), (_, state) => ({
      tables: ownTables(state.storage.sql),
      tasks: state.storage.sql.exec('SELECT COUNT(*) AS n FROM task').one()['n'],
    }));
    expect(left).toEqual({ tables: ['checks', 'focus', 'mailbox', 'meta', 'task', 'transcript', 'turns', 'usage'], tasks: 0 });
  });
});

describe('ledger repair through the object', () => {
  it('restores a lost task item from the stored turn without running providers again', async () => {
    const id = await create();
    await waitForTask(id, settled);
    const before = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec("DELETE FROM transcript WHERE item_id = 'local:task'"));
    const repaired = AssembledTurnSchema.parse((await api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } })).json);
    // Same digest and the very same durations: the stored record was used, not a new run.
    expect(repaired).toEqual(before);
    const count = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM transcript WHERE item_id = 'local:task'").one());
    expect(count['n']).toBe(1);
  });
});
