/**
 * The intake shards: a trigger's delivery is stored in one before it is answered, and handed to
 * its Task object after. Each shard's alarm would fire by itself and race the test, so deliveries
 * are stored and their alarm taken away in one step, and the test runs the alarm when it wants.
 * The file has storage of its own (vitest.config.ts): it reads whole shards.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IntakeEntrySchema, type IntakeEntry } from '../../durable-objects/intake-entry.ts';
import { PendingEntrySchema } from '../../durable-objects/pull-request-entry.ts';
import { AgentConfigSchema } from '../../src/context/agents.ts';
import { getAgents, getConfig } from '../../src/env.ts';
import { durableTaskService } from '../../src/tasks/durable-task-service.ts';
import { taskAgent } from '../../src/tasks/task-agent.ts';
import { intakeStub } from '../../src/tasks/task-intake.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { SETTLE_GUARD_MS } from '../support/api.ts';
import { holdFirstAttemptStarts, holdTaskAlarms } from '../support/held-alarms.ts';
import { handedOn, intakeRow } from '../support/intake.ts';

const DAY_MS = 86_400_000;
const TENANT = 'api:acme';

function delivery(name: string): { taskId: string; entry: IntakeEntry } {
  const request = TaskRequestSchema.parse({ origin: 'api', tenant: TENANT, repo: 'acme/widgets', request: `Review ${name}.` });
  const agent = taskAgent(getAgents(), request);
  if (!agent.ok) throw new Error(agent.message);
  return { taskId: env.TASKS.idFromName(`intake-test:${name}`).toString(), entry: { request, agent: agent.agent, options: { indexReport: 'with-assembly' } } };
}

/** Accepts `entry` and disarms the shard in one step, so only the test runs its alarm. */
function acceptHeld(taskId: string, entry: string) {
  return runInDurableObject(intakeStub(env, taskId), async (shard, state) => {
    const answer = await shard.accept(taskId, entry);
    const armed = await state.storage.getAlarm();
    await state.storage.deleteAlarm();
    return { answer, armed };
  });
}

const runAlarm = (taskId: string) => runInDurableObject(intakeStub(env, taskId), (shard) => shard.alarm());
const describeTask = async (taskId: string) => TaskDescriptionSchema.parse(await env.TASKS.get(env.TASKS.idFromString(taskId)).describe(TENANT));

afterEach(() => vi.restoreAllMocks());

describe('an intake shard', () => {
  it('stores a delivery once and arms its alarm for now; a redelivery is pending until it is handed on', async () => {
    const { taskId, entry } = delivery('once');
    const before = Date.now();
    const first = await acceptHeld(taskId, JSON.stringify(entry));
    expect(first.answer).toBe('accepted');
    expect(first.armed).toBeGreaterThanOrEqual(before);
    expect(first.armed).toBeLessThanOrEqual(Date.now());
    expect(await acceptHeld(taskId, JSON.stringify(entry))).toEqual({ answer: 'pending', armed: null });
    expect(await intakeRow(taskId)).toMatchObject({ entry: JSON.stringify(entry), attempts: 0 });
  });

  it('hands the delivery to its Task object from its alarm, keeps only the id, and answers a redelivery as forwarded', async () => {
    const { taskId, entry } = delivery('forwarded');
    await acceptHeld(taskId, JSON.stringify(entry));
    await runAlarm(taskId);
    expect(await intakeRow(taskId)).toEqual({ entry: null, due_at: null, attempts: 0, last_error: null });
    expect(await describeTask(taskId)).toMatchObject({ id: taskId, request: { request: 'Review forwarded.' } });
    expect((await acceptHeld(taskId, JSON.stringify(entry))).answer).toBe('forwarded');
  });

  it('hands the delivery on, and its Task object begins turn 0 in that invocation, not from its alarm', async () => {
    const { taskId, entry } = delivery('begun');
    await acceptHeld(taskId, JSON.stringify(entry));
    const alarms = holdTaskAlarms({ starts: 'run' });
    try {
      await runAlarm(taskId);
      // Begun before the hand-off was answered; the Task object's alarm is held and has run nothing.
      expect((await describeTask(taskId)).attempts).toBe(1);
      expect(alarms.starts).toBe(0);
    } finally {
      alarms.release();
    }
  });

  it('hands the stored text on unread, and its Task object reads it once, with the whole entry\'s schema', async () => {
    const { taskId, entry } = delivery('read-once');
    const stored = { ...entry, options: { ...entry.options, pullRequestEntry: { pullRequest: { installationId: 1, repo: 'acme/widgets', number: 7 }, delivery: 'delivery-read-once' } } };
    await acceptHeld(taskId, JSON.stringify(stored));
    const parses = [
      vi.spyOn(IntakeEntrySchema, 'parse'),
      vi.spyOn(TaskRequestSchema, 'parse'),
      vi.spyOn(AgentConfigSchema, 'parse'),
      vi.spyOn(PendingEntrySchema, 'parse'),
    ];
    // The first attempt the creation begins is held: it reads what it owes its pull request's index.
    const starts = holdFirstAttemptStarts();
    try {
      await runAlarm(taskId);
    } finally {
      starts.release();
    }
    expect(await intakeRow(taskId)).toMatchObject({ entry: null, due_at: null, attempts: 0 });
    // The entry once (the request, agent and pull request entry inside it), nothing again.
    expect(parses.map((parse) => parse.mock.calls.length)).toEqual([1, 0, 0, 0]);
    vi.restoreAllMocks();
    expect(await describeTask(taskId)).toMatchObject({ id: taskId, request: { request: 'Review read-once.' } });
  });

  it('gives a Task object asked before its alarm the stored task, which the forwarding then finds and leaves', async () => {
    const { taskId, entry } = delivery('asked-early');
    await acceptHeld(taskId, JSON.stringify(entry));
    const early = await describeTask(taskId);
    expect(early).toMatchObject({ id: taskId, request: { request: 'Review asked-early.' } });
    // Still owed by the shard: the object took a copy, the shard's alarm hands it on as usual.
    expect((await intakeRow(taskId))?.due_at).not.toBeNull();
    await runAlarm(taskId);
    expect((await intakeRow(taskId))?.due_at).toBeNull();
    expect((await describeTask(taskId)).createdAt).toBe(early.createdAt);
  });

  it('answers a Task object with nothing to give when no delivery is stored for it', async () => {
    const taskId = env.TASKS.newUniqueId().toString();
    expect(await env.TASKS.get(env.TASKS.idFromString(taskId)).describe(TENANT)).toEqual({ status: 'not-found' });
    expect(await intakeStub(env, taskId).pending(taskId)).toBeNull();
  });

  it('makes a Task object asked before its alarm fail, never answer not-found, when the stored delivery cannot be read', async () => {
    const { taskId } = delivery('garbled');
    await acceptHeld(taskId, '{"request":');
    // Caught inside the object: an RPC's rejection is also reported to the test run as unhandled.
    const task = env.TASKS.get(env.TASKS.idFromString(taskId));
    const answer = await runInDurableObject(task, (object) => object.describe(TENANT).then((described) => described, (error: unknown) => ({ error: String(error) })));
    expect(answer).toEqual({ error: expect.stringMatching(/SyntaxError.*JSON/) });
    expect(await runInDurableObject(task, (_, state) => state.storage.sql.exec('SELECT task_id FROM task').toArray())).toEqual([]);
    // Any later alarm of its shard would fail on it and log.
    await runInDurableObject(intakeStub(env, taskId), (_, state) => state.storage.sql.exec('DELETE FROM deliveries WHERE task_id = ?', taskId));
  });

  it('keeps a delivery it cannot hand on, with the error, tries it again later and says so', async () => {
    const { taskId, entry } = delivery('unreadable');
    // Stored by a Worker with a bug: the Task object would refuse the request.
    await acceptHeld(taskId, JSON.stringify({ ...entry, request: { ...entry.request, tenant: '' } }));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = Date.now();
    await runAlarm(taskId);
    const kept = await intakeRow(taskId);
    expect(kept).toMatchObject({ attempts: 1 });
    expect(kept?.due_at).toBeGreaterThanOrEqual(before + 1_000);
    expect(kept?.last_error).toMatch(/tenant/);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(new RegExp(`task ${taskId}: delivery not handed on \\(attempt 1, retry in 1 s\\)`));
    // The shard wakes for it again.
    expect(await runInDurableObject(intakeStub(env, taskId), (_, state) => state.storage.getAlarm())).toBe(kept?.due_at);
    // It would fail and log on every later alarm of its shard.
    await runInDurableObject(intakeStub(env, taskId), (_, state) => state.storage.sql.exec('DELETE FROM deliveries WHERE task_id = ?', taskId));
  });

  it('forgets forwarded deliveries after the retention, gives up one never handed on, loudly, and wakes for the next to forget', async () => {
    const retention = getConfig(env).TASK_RETENTION_DAYS * DAY_MS;
    const old = delivery('old');
    const stuck = delivery('stuck');
    const recent = delivery('recent');
    for (const { taskId, entry } of [old, stuck, recent]) await acceptHeld(taskId, JSON.stringify(entry));
    await runAlarm(old.taskId);
    await runAlarm(recent.taskId);
    const ago = Date.now() - retention - 1_000;
    for (const taskId of [old.taskId, stuck.taskId]) {
      await runInDurableObject(intakeStub(env, taskId), (_, state) => {
        state.storage.sql.exec('UPDATE deliveries SET received_at = ? WHERE task_id = ?', ago, taskId);
        // The stuck one failed every time and is not due again yet.
        if (taskId === stuck.taskId) state.storage.sql.exec('UPDATE deliveries SET due_at = ?, attempts = 9 WHERE task_id = ?', Date.now() + 60_000, taskId);
      });
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await runAlarm(old.taskId);
    await runAlarm(stuck.taskId);
    expect(await intakeRow(old.taskId)).toBeUndefined();
    expect(await intakeRow(stuck.taskId)).toBeUndefined();
    expect(errors.mock.calls.map(([message]) => String(message))).toContainEqual(expect.stringMatching(new RegExp(`task ${stuck.taskId}: delivery given up after the retention period \\(last error: none\\)`)));
    expect(await intakeRow(recent.taskId)).toMatchObject({ due_at: null });
    // The recent delivery's shard wakes once it is due to be forgotten.
    const received = await runInDurableObject(intakeStub(env, recent.taskId), (_, state) => state.storage.sql.exec<{ at: number }>('SELECT MIN(received_at) AS at FROM deliveries').one().at);
    expect(await runInDurableObject(intakeStub(env, recent.taskId), (_, state) => state.storage.getAlarm())).toBe(received + retention);
  });
});

describe('the task service with an idempotency key', () => {
  it('answers from the shard until the task is handed on, then with the Task object’s own status', async () => {
    const service = durableTaskService(env);
    const request = { origin: 'api', tenant: TENANT, repo: 'acme/widgets', request: 'Review the service.' } as const;
    const first = await service.create(request, { idempotencyKey: 'intake-test:service' });
    expect(first).toMatchObject({ status: 'pending', created: true });
    expect(first.id).toBe(env.TASKS.idFromName('intake-test:service').toString());
    // Its shard's own alarm (armed by the create) hands it on; wait for that, not for a time.
    await handedOn(first.id);
    // Its assembly ends (acme/widgets is no repository the tests' GitHub serves), and the status
    // of a redelivery is then the object's, where the shard could only say pending.
    const deadline = Date.now() + SETTLE_GUARD_MS;
    let settled = await describeTask(first.id);
    while (settled.status !== 'ready' && settled.status !== 'failed') {
      if (Date.now() > deadline) throw new Error(`task ${first.id} still ${settled.status} after ${SETTLE_GUARD_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
      settled = await describeTask(first.id);
    }
    expect(await service.create(request, { idempotencyKey: 'intake-test:service' })).toEqual({ id: first.id, status: settled.status, created: false });
  });
});
