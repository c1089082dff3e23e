/**
 * The intake shards: a trigger's delivery is stored in one before it is answered, and handed to
 * its Task object after. Each shard's alarm would fire by itself and race the test, so deliveries
 * are stored and their alarm taken away in one step, and the test runs the alarm when it wants;
 * the Worker's own hand-off after its answer is tested with every shard's alarm held. The file has
 * storage of its own (vitest.config.ts): it reads whole shards.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IntakeEntrySchema, type IntakeEntry } from '../../durable-objects/intake-entry.ts';
import { PendingEntrySchema } from '../../durable-objects/pull-request-entry.ts';
import { TaskCreation } from '../../durable-objects/task-create.ts';
import { AgentConfigSchema } from '../../src/context/agents.ts';
import { getAgents, getConfig } from '../../src/env.ts';
import { durableTaskService } from '../../src/tasks/durable-task-service.ts';
import { taskAgent } from '../../src/tasks/task-agent.ts';
import { intakeStub } from '../../src/tasks/task-intake.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { SETTLE_GUARD_MS } from '../support/api.ts';
import { holdFirstAttemptStarts, holdIntakeAlarms, holdTaskAlarms, type HeldAlarms, type HeldIntakeAlarms } from '../support/held-alarms.ts';
import { handedOn, intakeRow } from '../support/intake.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { post, pullRequestEvent, signedDelivery, WEBHOOK_URL } from '../e2e/support.ts';

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
const describeTask = async (taskId: string, tenant = TENANT) => TaskDescriptionSchema.parse(await env.TASKS.get(env.TASKS.idFromString(taskId)).describe(tenant));

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

/** Holds every Task object's answer to a hand-off open until `open`; counts the hand-offs that reached one. */
function gateHandOffs() {
  const fromIntake = TaskCreation.prototype.fromIntake;
  let open = (): void => undefined;
  let arrived = (): void => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const reached = vi.spyOn(TaskCreation.prototype, 'fromIntake').mockImplementation(async function (this: TaskCreation, text: string) {
    arrived();
    await gate;
    return fromIntake.call(this, text);
  });
  return {
    reached: () => reached.mock.calls.length,
    /** The first hand-off has reached a Task object; the guard only catches one that never does. */
    first: () => guarded(first, 'no hand-off reached a Task object'),
    open: () => open(),
  };
}

function guarded<T>(promise: Promise<T>, hang: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${hang} (${SETTLE_GUARD_MS} ms)`)), SETTLE_GUARD_MS)));
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** Waits until `done`; the guard only catches a hang. */
async function until(done: () => Promise<boolean>, hang: string): Promise<void> {
  const deadline = Date.now() + SETTLE_GUARD_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${hang} (${SETTLE_GUARD_MS} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `count` deliveries whose tasks share one intake shard (the first hex digit of their ids). */
function sameShard(name: string, count: number): Array<{ taskId: string; entry: IntakeEntry }> {
  const found: Array<{ taskId: string; entry: IntakeEntry }> = [];
  for (let i = 0; found.length < count; i++) {
    const one = delivery(`${name}-${i}`);
    if (found.length === 0 || one.taskId[0] === found[0]?.taskId[0]) found.push(one);
  }
  return found;
}

/** A pull request delivery through the Worker's webhook route; answers the task id of its 202. */
async function deliver(number: number): Promise<string> {
  const answer = await post(WEBHOOK_URL, await signedDelivery(pullRequestEvent('reopened', { number })));
  expect(answer.status).toBe(202);
  const body = await answer.json<{ taskId: string; duplicate: boolean }>();
  expect(body.duplicate).toBe(false);
  return body.taskId;
}

// Issue 56: the webhook route asks the delivery's shard to hand it on once it has answered
// (waitUntil), one alarm hop sooner; the shard's alarm stays the backstop and joins a hand-off
// under way. Every shard's alarm is held (only what the Worker asked for hands a delivery on), and
// every Task object's alarm and first attempt (`tasks.starts` counts the tasks created).
describe("the Worker's hand-off after its answer", () => {
  let shards: HeldIntakeAlarms;
  let tasks: HeldAlarms;
  beforeEach(() => {
    shards = holdIntakeAlarms();
    tasks = holdTaskAlarms();
  });
  afterEach(() => {
    tasks.release();
    shards.release();
  });

  it("hands an accepted delivery to its Task object with the shard's alarm held, once; the alarm then finds nothing due", async () => {
    const handOffs = vi.spyOn(TaskCreation.prototype, 'fromIntake');
    const taskId = await deliver(9301);
    await handedOn(taskId);
    expect(handOffs).toHaveBeenCalledTimes(1);
    await shards.run(taskId);
    expect(handOffs).toHaveBeenCalledTimes(1);
    expect(tasks.starts).toBe(1);
    expect(await describeTask(taskId, `github:${githubFixture().installationId}`)).toMatchObject({ id: taskId, status: 'pending' });
  });

  it('answers 202 while the hand-off it asked for is held open at the Task object', async () => {
    const gate = gateHandOffs();
    try {
      // Answered with the Task object's create held: the answer waited for neither it nor the shard.
      const taskId = await guarded(deliver(9302), 'the 202 waited for the hand-off');
      await gate.first();
      expect((await intakeRow(taskId))?.due_at).not.toBeNull();
      expect(tasks.starts).toBe(0);
      gate.open();
      await handedOn(taskId);
      expect(gate.reached()).toBe(1);
      expect(tasks.starts).toBe(1);
    } finally {
      gate.open();
    }
  });

  it("has the shard's alarm join the hand-off under way: one hand-off reaches the Task object, one task", async () => {
    const gate = gateHandOffs();
    try {
      const taskId = await deliver(9303);
      await gate.first();
      // The alarm begins while the hand-off is held: it finds the row due and joins the hand-off.
      await shards.run(taskId, () => gate.open());
      expect(await intakeRow(taskId)).toMatchObject({ entry: null, due_at: null, attempts: 0 });
      expect(gate.reached()).toBe(1);
      expect(tasks.starts).toBe(1);
    } finally {
      gate.open();
    }
  });

  it("leaves a hand-off that failed to the shard's alarm, which creates the task once", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // workerd also logs the rejected call in the Task object as an uncaught exception.
    const handOffs = vi.spyOn(TaskCreation.prototype, 'fromIntake').mockRejectedValueOnce(new Error('the Task object was reset'));
    const taskId = await deliver(9304);
    await until(async () => (await intakeRow(taskId))?.attempts === 1, 'the failed hand-off was never recorded');
    const kept = await intakeRow(taskId);
    expect(kept).toMatchObject({ attempts: 1, last_error: 'the Task object was reset' });
    expect(kept?.entry).toContain('"number":9304');
    expect(tasks.starts).toBe(0);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(new RegExp(`task ${taskId}: delivery not handed on \\(attempt 1, retry in 1 s\\)`));
    // Its retry comes due (moved to now rather than waited for) and the alarm hands it on.
    await runInDurableObject(intakeStub(env, taskId), (_, state) => state.storage.sql.exec('UPDATE deliveries SET due_at = ? WHERE task_id = ?', Date.now(), taskId));
    await shards.run(taskId);
    expect(await intakeRow(taskId)).toMatchObject({ entry: null, due_at: null });
    expect(handOffs).toHaveBeenCalledTimes(2);
    expect(tasks.starts).toBe(1);
  });

  it('begins at most 8 hand-offs asked for at once in one shard; its alarm hands on the rest of a burst', async () => {
    const burst = sameShard('burst', 9);
    const handOffs = vi.spyOn(TaskCreation.prototype, 'fromIntake');
    await runInDurableObject(intakeStub(env, burst[0]!.taskId), async (shard) => {
      for (const { taskId, entry } of burst) await shard.accept(taskId, JSON.stringify(entry));
      // The Worker's nine requests, all made before any hand-off can have ended.
      await Promise.all(burst.map(({ taskId }) => shard.handOn(taskId)));
    });
    for (const { taskId } of burst.slice(0, 8)) expect((await intakeRow(taskId))?.due_at).toBeNull();
    expect((await intakeRow(burst[8]!.taskId))?.due_at).not.toBeNull();
    expect(handOffs).toHaveBeenCalledTimes(8);
    await shards.run(burst[8]!.taskId);
    expect((await intakeRow(burst[8]!.taskId))?.due_at).toBeNull();
    expect(handOffs).toHaveBeenCalledTimes(9);
    expect(tasks.starts).toBe(9);
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
