/**
 * @module test/bounds/support
 * Driving a task through its bounded attempts with nothing left to the clock, which on a loaded
 * machine would decide what the test sees. The task is created with its alarm taken away; a
 * client's begin of turn 0 starts the first attempt and the test starts each retry from the
 * object's alarm; every deadline of an attempt is held, and the assembly's (ASSEMBLY_TIMEOUT_MS)
 * is fired by the test once the remote holds the attempt's request; the alarm each failure arms is
 * recorded and taken away as it is armed, so the runtime never starts an attempt by itself. And
 * what every bounded failure must look like: the deadline named with the step in progress, an API
 * that kept answering meanwhile, and three attempts with no fourth.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, expect, inject, vi } from 'vitest';
import type { SeenRequest } from '../setup/git-http-server.ts';
import { getAgents } from '../../src/env.ts';
import { taskAgent } from '../../src/tasks/task-agent.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { TaskDescriptionSchema, type TaskDescription } from '../../src/tasks/task-results.ts';
import { api, SETTLE_GUARD_MS } from '../support/api.ts';
import { endOnly, withoutFirstAttempt } from '../support/held-alarms.ts';
import { holdTimers, type HeldTimers } from '../support/held-timers.ts';
import { BOUNDS_ASSEMBLY_TIMEOUT_MS } from './bindings.ts';

const TENANT = 'api:acme';
/** The first attempt's retry and the second's (first-turn-attempts); the third arms none. */
const BACKOFF_MS = [2_000, 4_000] as const;

export const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

export async function describeTask(id: string): Promise<TaskDescription> {
  return TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
}

/** The reason of an attempt that reached its deadline during `step`. */
export const overdue = (step: string): string => `turn 0 was not assembled within ${BOUNDS_ASSEMBLY_TIMEOUT_MS} ms (ASSEMBLY_TIMEOUT_MS): still ${step}`;

/** The deadlines of the attempt under way, held: the assembly's, and the providers' while they run. */
export interface HeldDeadlines {
  /** The assembly deadline (it ends the attempt when fired). */
  assembly: HeldTimers;
  /** Deadlines of providers running now: none before the attempt reaches its providers, and none after. */
  providers: HeldTimers;
  /** Lets every deadline go; one still held then never fires. */
  release(): void;
}

/**
 * Holds, until `release`, every deadline a task's reads set: the assembly's, which `endAttempt`
 * fires, each provider's (context/deadline), which the tests here never fire, so no provider gives
 * up first however slow the machine is.
 */
export function holdDeadlines(): HeldDeadlines {
  const hold = holdTimers({
    assembly: { from: 'src/lib/deadline.ts', ms: BOUNDS_ASSEMBLY_TIMEOUT_MS },
    providers: { from: 'src/context/deadline.ts' },
  });
  return { ...hold.held, release: () => hold.release() };
}

/** Holds every deadline (`holdDeadlines`) for each test of the file, released after it; the running test's. */
export function holdDeadlinesEachTest(): () => HeldDeadlines {
  let held: HeldDeadlines | undefined;
  beforeEach(() => {
    held = holdDeadlines();
  });
  afterEach(() => {
    held?.release();
    held = undefined;
  });
  return () => {
    if (!held) throw new Error('deadlines are held only while a test runs');
    return held;
  };
}

/**
 * Creates the REST task `body` describes in a new Task object, holding the first attempt creating
 * begins, and takes away the alarm creating arms, in one step (nothing in between lets the alarm
 * in): no attempt starts until the test or a client starts one.
 */
export async function createHeld(body: { repo: string; ref?: string | undefined }): Promise<string> {
  const request = TaskRequestSchema.parse({ origin: 'api', tenant: TENANT, request: 'Explain the build.', ...body });
  const agent = taskAgent(getAgents(), request);
  if (!agent.ok) throw new Error(agent.message);
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  const armed = await runInDurableObject(stub, async (task, state) => {
    expect(await withoutFirstAttempt(() => task.create(request, agent.agent, { indexReport: 'with-assembly' }))).toMatchObject({ status: 'pending', created: true });
    const at = await state.storage.getAlarm();
    await state.storage.deleteAlarm();
    return at;
  });
  // Created tasks are due at once.
  expect(armed).toBeLessThanOrEqual(Date.now());
  return stub.id.toString();
}

/** Starts an attempt from the object's alarm, as the runtime would once the retry it armed came due. */
export async function startAttempt(id: string): Promise<void> {
  await runInDurableObject(stubOf(id), (task) => {
    void task.alarm();
  });
}

/**
 * The alarms an attempt's end armed, and the object's clock just before the deadline fired and once
 * the attempt had ended: each was armed in between.
 */
export interface AttemptEnd {
  armed: number[];
  from: number;
  to: number;
}

/**
 * Ends the attempt under way at its deadline. Inside the object: its alarm joins the attempt (a
 * second caller shares the one under way), the held assembly deadline fires, and every alarm the
 * attempt's end arms is recorded instead of armed.
 */
export async function endAttempt(id: string, deadlines: HeldDeadlines): Promise<AttemptEnd> {
  return runInDurableObject(stubOf(id), async (task, state) => {
    expect(deadlines.assembly.count, 'the attempt under way is waiting on its deadline').toBe(1);
    const armed: number[] = [];
    const arming = vi.spyOn(state.storage, 'setAlarm').mockImplementation(async (at) => {
      armed.push(Number(at));
    });
    const from = Date.now();
    try {
      const joined = task.alarm();
      deadlines.assembly.fire();
      await joined;
    } finally {
      arming.mockRestore();
    }
    return { armed, from, to: Date.now() };
  });
}

/** The attempt's end armed one alarm, `delayMs` after it ended. */
function expectRetryArmed(end: AttemptEnd, delayMs: number): void {
  expect(end.armed).toHaveLength(1);
  expect(end.armed[0]).toBeGreaterThanOrEqual(end.from + delayMs);
  expect(end.armed[0]).toBeLessThanOrEqual(end.to + delayMs);
}

/**
 * Resolves once the task's remote holds, unanswered, the request of the task's `attempt`-th
 * attempt (1-based): the attempt is then waiting on it, in the step that needed it.
 */
export type RemoteHolds = (attempt: number) => Promise<void>;

/** What the tests' git server recorded under `tag` (`/_tag/<tag>/…`). */
export async function seenByGitHost(tag: string): Promise<SeenRequest[]> {
  const response = await fetch(`http://127.0.0.1:${inject('gitHttpPort')}/_control/seen/${tag}`);
  return response.json<SeenRequest[]>();
}

/**
 * The git server holds `waitsOn` requests of each attempt under `tag` (the requests an attempt
 * makes in the round the server never finishes): once it holds them all, the attempt waits on
 * them, and nothing else ends it.
 */
export const gitHostHolds =
  (tag: string, waitsOn: number): RemoteHolds =>
  (attempt) =>
    vi.waitFor(
      async () => {
        const seen = await seenByGitHost(tag);
        expect(seen.filter((request) => request.held), `the git host's requests: ${JSON.stringify(seen)}`).toHaveLength(attempt * waitsOn);
      },
      { timeout: SETTLE_GUARD_MS },
    );

/**
 * The first attempt, begun by a client: while it waits on its remote, the Worker and the task's
 * own object answer, and the begin of turn 0 is answered when the deadline ends the attempt: a
 * 409 with `reason`. The task is then waiting to retry, saying why, with its retry armed.
 */
export async function expectAnswersWhileWaiting(id: string, reason: string, deadlines: HeldDeadlines, remoteHolds: RemoteHolds): Promise<void> {
  const begun = api('POST', `/tasks/${id}/turns`, { body: { turn: 0 } });
  await remoteHolds(1);
  expect((await api('GET', '/health')).status).toBe(200);
  expect(await describeTask(id)).toMatchObject({ status: 'assembling', attempts: 1 });
  const ended = await endAttempt(id, deadlines);
  const answer = await begun;
  expect(answer.status).toBe(409);
  expect(answer.json.error?.message).toBe(`turn 0 could not be assembled: ${reason}`);
  expectRetryArmed(ended, BACKOFF_MS[0]);
  expect(await describeTask(id)).toMatchObject({ status: 'pending', attempts: 1, reason: `attempt 1 failed: ${reason}; retrying in 2 s` });
}

/**
 * Runs the retries the first attempt's failure leads to, each ended at its deadline once the remote
 * holds its request, and answers the task after the last: the third attempt arms only its
 * retention cleanup, never a fourth attempt.
 */
export async function runRetries(id: string, reason: string, deadlines: HeldDeadlines, remoteHolds: RemoteHolds): Promise<TaskDescription> {
  const second = await attemptAgain(id, 2, deadlines, remoteHolds);
  expectRetryArmed(second.ended, BACKOFF_MS[1]);
  expect(second.task).toMatchObject({ status: 'pending', reason: `attempt 2 failed: ${reason}; retrying in 4 s` });
  const third = await attemptAgain(id, 3, deadlines, remoteHolds);
  // Retention last, before it at most the end's catch-up: never a fourth attempt.
  expect(endOnly(third.ended.armed, Date.parse(third.task.expiresAt), third.ended.from)).toBe(true);
  return third.task;
}

async function attemptAgain(id: string, attempt: number, deadlines: HeldDeadlines, remoteHolds: RemoteHolds): Promise<{ ended: AttemptEnd; task: TaskDescription }> {
  await startAttempt(id);
  await remoteHolds(attempt);
  expect(await describeTask(id)).toMatchObject({ status: 'assembling', attempts: attempt });
  const ended = await endAttempt(id, deadlines);
  return { ended, task: await describeTask(id) };
}
