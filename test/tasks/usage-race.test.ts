/**
 * Usage reports racing a turn, in the Task object itself: each race calls the object's methods
 * side by side in one step, so the report (which does no I/O) runs while the turn's assembly
 * waits on the repository, by construction rather than by timing; the test checks that it did.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { TaskObject } from '../../durable-objects/task.ts';
import { TaskDescriptionSchema, TurnResultSchema, UsageResultSchema } from '../../src/tasks/task-results.ts';
import type { UsageReport } from '../../src/tasks/turn-usage.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const TENANT = 'api:acme';
const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));
const report = (output: number): UsageReport => ({ format: 'anthropic', usage: { input_tokens: 100, output_tokens: output, cache_read_input_tokens: 40, cache_creation_input_tokens: 0 } });

async function readyTask(): Promise<string> {
  const res = await api('POST', '/tasks', { body: { repo: `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`, request: 'Explain the build.' } });
  const id = String(res.json['id']);
  expect(await waitForTask(id, settled)).toMatchObject({ status: 'ready' });
  return id;
}

/** Begins `turn` and, while it assembles, runs `during`; answers both, and whether `during` ended first. */
function raceBegin<T>(id: string, turn: number, during: (task: TaskObject) => Promise<T>) {
  return runInDurableObject(stubOf(id), async (task) => {
    let begun = false;
    const begin = task.beginTurn(TENANT, turn).then((result) => ((begun = true), TurnResultSchema.parse(result)));
    const raced = await during(task);
    const endedFirst = !begun;
    return { begin: await begin, raced, endedFirst };
  });
}

describe('usage reports racing a turn', () => {
  it("records turn 0's report while turn 1 assembles, and turn 1 is what it would have been", async () => {
    const id = await readyTask();
    const { begin, raced, endedFirst } = await raceBegin(id, 1, (task) => task.reportUsage(TENANT, 0, report(7)));
    expect(endedFirst).toBe(true);
    expect(UsageResultSchema.parse(raced)).toMatchObject({ status: 'ok', duplicate: false, usage: { outputTokens: 7 } });
    if (begin.status !== 'ok') throw new Error(`turn 1: ${begin.status}`);
    // Read back as stored: the report touched neither the turn nor its transcript.
    expect((await api('GET', `/tasks/${id}/turns/1`)).json).toEqual(begin.turn);
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns.map((turn) => [turn.turn, turn.usage?.outputTokens ?? null])).toEqual([[0, 7], [1, null]]);
  });

  it('refuses a report for the turn that is still assembling, records nothing, and takes it once the turn is stored', async () => {
    const id = await readyTask();
    const { begin, raced, endedFirst } = await raceBegin(id, 1, (task) => task.reportUsage(TENANT, 1, report(9)));
    expect(endedFirst).toBe(true);
    expect(UsageResultSchema.parse(raced)).toEqual({ status: 'conflict', message: 'turn 1 has not begun; report usage for a turn whose request was sent' });
    expect(begin.status).toBe('ok');
    expect(await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM usage').one()['n'])).toBe(0);
    const after = await api('POST', `/tasks/${id}/turns/1/usage`, { body: report(9) });
    expect([after.status, after.json['duplicate']]).toEqual([201, false]);
  });

  it('keeps one report per turn when several arrive at once: the first, and says so to the others', async () => {
    const id = await readyTask();
    const answers = await runInDurableObject(stubOf(id), (task) => Promise.all([report(1), report(2), report(1), report(3)].map((one) => task.reportUsage(TENANT, 0, one))));
    const results = answers.map((answer) => UsageResultSchema.parse(answer));
    // The first is recorded; the same report again is that one; different ones are conflicts naming it.
    expect(results.map((result) => (result.status === 'ok' ? (result.duplicate ? 'duplicate' : 'recorded') : result.status))).toEqual(['recorded', 'conflict', 'duplicate', 'conflict']);
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns[0]?.usage?.outputTokens).toBe(1);
  });
});
