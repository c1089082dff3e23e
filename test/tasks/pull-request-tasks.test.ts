import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getConfig } from '../../src/env.ts';

const DAY_MS = 86_400_000;
const task = (n: number) => n.toString(16).padStart(64, '0');

function pullRequestObject() {
  return env.PULL_REQUESTS.get(env.PULL_REQUESTS.newUniqueId());
}

describe("a pull request's index object", () => {
  it('names its latest task and where each delivery went; a redelivery moves nothing', async () => {
    const stub = pullRequestObject();
    expect(await stub.lookup('d1')).toEqual({ latest: null, routed: null });
    await stub.record('d1', { kind: 'task', taskId: task(1) });
    await stub.record('d2', { kind: 'task', taskId: task(2) });
    await stub.record('d3', { kind: 'mailbox', taskId: task(2) });
    // An old event redelivered: its task is known, so it does not become the latest again.
    await stub.record('d1', { kind: 'task', taskId: task(1) });
    expect(await stub.lookup('d1')).toEqual({ latest: task(2), routed: { kind: 'task', taskId: task(1) } });
    expect(await stub.lookup('d3')).toEqual({ latest: task(2), routed: { kind: 'mailbox', taskId: task(2) } });
  });

  it('keeps itself past the retention of its newest delivery and writes its alarm only when it falls short', async () => {
    const stub = pullRequestObject();
    const retention = getConfig(env).TASK_RETENTION_DAYS * DAY_MS;
    const started = Date.now();
    await stub.record('d1', { kind: 'task', taskId: task(1) });
    const first = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
    expect(first).toBeGreaterThanOrEqual(started + retention);
    expect(first).toBeLessThanOrEqual(Date.now() + retention + DAY_MS);

    // Armed far enough ahead: later deliveries leave the alarm as it is.
    const later = (first ?? 0) + 1234;
    await runInDurableObject(stub, (_, state) => state.storage.setAlarm(later));
    await stub.record('d2', { kind: 'task', taskId: task(2) });
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(later);

    // Armed short of a delivery's retention (a day went by): the delivery moves it.
    await runInDurableObject(stub, (_, state) => state.storage.setAlarm(Date.now() + retention - DAY_MS));
    const before = Date.now();
    await stub.record('d3', { kind: 'mailbox', taskId: task(2) });
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBeGreaterThanOrEqual(before + retention);
  });

  it('forgets everything when its alarm fires', async () => {
    const stub = pullRequestObject();
    await stub.record('d1', { kind: 'task', taskId: task(1) });
    await runInDurableObject(stub, (instance) => instance.alarm());
    expect(await stub.lookup('d1')).toEqual({ latest: null, routed: null });
  });
});
