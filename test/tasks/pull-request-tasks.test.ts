import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { migratePullRequestTasks } from '../../durable-objects/pull-request-tasks.ts';
import { getConfig } from '../../src/env.ts';

const DAY_MS = 86_400_000;
const task = (n: number) => n.toString(16).padStart(64, '0');

function pullRequestObject() {
  return env.PULL_REQUESTS.get(env.PULL_REQUESTS.newUniqueId());
}

describe("a pull request's index object", () => {
  it('names its latest task and where each delivery went; a redelivery moves nothing', async () => {
    const stub = pullRequestObject();
    expect(await stub.lookup('d1')).toMatchObject({ latest: null, routed: null });
    await stub.record('d1', { kind: 'task', taskId: task(1) });
    await stub.record('d2', { kind: 'task', taskId: task(2) });
    await stub.record('d3', { kind: 'mailbox', taskId: task(2) });
    // An old event redelivered: its task is known, so it does not become the latest again.
    await stub.record('d1', { kind: 'task', taskId: task(1) });
    expect(await stub.lookup('d1')).toMatchObject({ latest: task(2), routed: { kind: 'task', taskId: task(1) } });
    expect(await stub.lookup('d3')).toMatchObject({ latest: task(2), routed: { kind: 'mailbox', taskId: task(2) } });
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
    expect(await stub.lookup('d1')).toMatchObject({ latest: null, routed: null });
  });
});

describe("the order of a pull request's tasks", () => {
  it('is the order they were created in, so a review whose entry was retried late does not become the latest', async () => {
    const stub = pullRequestObject();
    // The older review's entry failed and was made again after the newer one listed itself.
    await stub.record('d2', { kind: 'task', taskId: task(2) }, 2_000);
    await stub.record('d1', { kind: 'task', taskId: task(1) }, 1_000);
    expect((await stub.lookup('d3')).latest).toBe(task(2));
    // A comment's task is placed when it is recorded, which is when it was created.
    await stub.record('d3', { kind: 'task', taskId: task(3) });
    expect((await stub.lookup('d3')).latest).toBe(task(3));
  });

  it("places a comment's own task where its lookup was, so a review recorded while the comment was handled stays the latest", async () => {
    const stub = pullRequestObject();
    // The comment finds no task (the review is not recorded yet) and asks GitHub about the pull request...
    const comment = await stub.lookup('comment');
    expect(comment.latest).toBeNull();
    // ...while the review is stored and recorded...
    expect(await stub.record('review', { kind: 'task', taskId: task(1) })).toEqual({ previous: null });
    // ...then the comment's task is recorded at the comment's place: before the review.
    expect(await stub.record('comment', { kind: 'task', taskId: task(2) }, comment.place)).toEqual({ previous: null });
    expect((await stub.lookup('a later comment')).latest).toBe(task(1));
  });

  it('hands out places in the order deliveries reach it, even within one millisecond, and names the task placed before', async () => {
    const stub = pullRequestObject();
    const places = [];
    for (let i = 0; i < 20; i++) places.push((await stub.lookup(`d${i}`)).place);
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(new Set(places).size).toBe(places.length);
    expect(await stub.record('r1', { kind: 'task', taskId: task(1) })).toEqual({ previous: null });
    expect(await stub.record('r2', { kind: 'task', taskId: task(2) })).toEqual({ previous: task(1) });
    expect(await stub.record('r3', { kind: 'task', taskId: task(3) })).toEqual({ previous: task(2) });
    // A redelivery of the second review names the same task before it, whatever came after.
    expect(await stub.record('r2', { kind: 'task', taskId: task(2) })).toEqual({ previous: task(1) });
    expect(await stub.record('c1', { kind: 'mailbox', taskId: task(3) })).toEqual({ previous: null });
    // A place handed out after the last task's is after it, whatever the clock says.
    expect((await stub.lookup('d')).place).toBeGreaterThan(places.at(-1) ?? 0);
  });

  it('keeps the tasks an object stored before creation times, below every task that has one', async () => {
    const stub = pullRequestObject();
    await runInDurableObject(stub, (_, state) => {
      // The object as the first schema left it: no meta table, no created_at.
      state.storage.sql.exec('DROP TABLE tasks; DROP TABLE deliveries; DROP TABLE meta;');
      state.storage.sql.exec('CREATE TABLE tasks (seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL UNIQUE); CREATE TABLE deliveries (delivery TEXT PRIMARY KEY, kind TEXT NOT NULL, task_id TEXT NOT NULL, at INTEGER NOT NULL);');
      state.storage.sql.exec('INSERT INTO tasks (task_id) VALUES (?), (?)', task(1), task(2));
      migratePullRequestTasks(state.storage.sql);
    });
    expect((await stub.lookup('d')).latest).toBe(task(2));
    await stub.record('d3', { kind: 'task', taskId: task(3) }, 1);
    expect((await stub.lookup('d')).latest).toBe(task(3));
  });

  it('has the same schema when new as after every step', async () => {
    const schema = (how: 'fresh-when-new' | 'steps') =>
      runInDurableObject(pullRequestObject(), (_, state) => {
        state.storage.sql.exec('DROP TABLE tasks; DROP TABLE deliveries; DROP TABLE meta;');
        migratePullRequestTasks(state.storage.sql, how);
        const tables = state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('tasks', 'deliveries') ORDER BY name").toArray();
        const version = state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").one().value;
        return { version, tables: tables.map(({ name }) => ({ name, columns: state.storage.sql.exec('SELECT name, type, "notnull", pk FROM pragma_table_info(?)', name).toArray() })) };
      });
    const fresh = await schema('fresh-when-new');
    expect(fresh.tables.find((table) => table.name === 'tasks')?.columns.map((column) => column['name'])).toContain('created_at');
    expect(fresh).toEqual(await schema('steps'));
  });
});
