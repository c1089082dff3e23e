/**
 * The first attempt begins in the invocation that creates its task (issue 56), for both ways a task
 * is created: the API's create and a delivery's hand-off from its intake shard. The caller is not
 * held for it: the creation is answered while the attempt waits on a host that never answers, with
 * the Task object's alarm held, so nothing else can have begun it. The alarm, the backstop, then
 * joins that attempt instead of beginning a second: one attempt, one request, one retry armed.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { durableTaskService } from '../../src/tasks/durable-task-service.ts';
import { api } from '../support/api.ts';
import { holdTaskAlarms } from '../support/held-alarms.ts';
import { warmWorker } from '../support/warm-worker.ts';
import { describeTask, endAttempt, gitHostHolds, holdDeadlinesEachTest, seenByGitHost } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

beforeAll(warmWorker);
const deadlines = holdDeadlinesEachTest();

async function created(way: 'the API' | 'a delivery', repo: string, key: string): Promise<string> {
  const body = { origin: 'api', tenant: 'api:acme', repo, request: 'Explain the build.' } as const;
  if (way === 'the API') return String((await api('POST', '/tasks', { body: { repo, request: body.request } })).json['id']);
  return (await durableTaskService(env).create(body, { idempotencyKey: key })).id;
}

describe('the first attempt a creation begins', () => {
  for (const way of ['the API', 'a delivery'] as const) {
    it(`is begun by ${way}'s creation, which answers while it waits on a silent host; the alarm joins it`, async () => {
      const tag = crypto.randomUUID();
      const alarms = holdTaskAlarms({ starts: 'run' });
      let id: string;
      try {
        id = await created(way, `${base()}/_tag/${tag}/_silent/sample.git`, `first-attempt-start:${tag}`);
        // Answered, and the attempt waits on the host with the task's alarm held: the creation began it.
        await gitHostHolds(tag, 1)(1);
        expect(await describeTask(id)).toMatchObject({ status: 'assembling', attempts: 1 });
      } finally {
        alarms.release();
      }
      // The alarm joins the attempt under way; at its deadline it fails and arms one retry.
      const ended = await endAttempt(id, deadlines());
      expect(ended.armed).toHaveLength(1);
      expect(await describeTask(id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await seenByGitHost(tag)).filter((request) => request.held)).toHaveLength(1);
    });
  }
});
