import { expect, it } from 'vitest';
import { deliveryInit, example, fakeTaskService, testEnv, triggerApp, WEBHOOK_URL } from './support.ts';


it('creates exactly one task per unique delivery when 200 signed deliveries with 20% duplicates arrive at once', async () => {
  const tasks = fakeTaskService();
  const app = triggerApp(tasks);
  const unique = Array.from({ length: 160 }, (_, i) => {
    const payload = example('pull_request', 'synchronize');
    payload.installation = { id: 4242, node_id: 'I' };
    payload.pull_request.head.sha = i.toString(16).padStart(40, '0');
    return { id: crypto.randomUUID(), payload };
  });
  // Every eighth unique delivery is redelivered twice more: 160 + 40 = 200 requests, 20% duplicates.
  const redelivered = unique.filter((_, i) => i % 8 === 0).flatMap((delivery) => [delivery, delivery]);
  const all = [...unique, ...redelivered].sort(() => Math.random() - 0.5);
  expect(all).toHaveLength(200);

  const inits = await Promise.all(all.map((delivery) => deliveryInit(delivery.payload, { delivery: delivery.id })));
  const responses = await Promise.all(inits.map((init) => app.request(WEBHOOK_URL, init, testEnv())));
  const bodies = await Promise.all(responses.map((response) => response.json<{ taskId: string; duplicate: boolean }>()));

  expect(responses.every((response) => response.status === 202)).toBe(true);
  expect(tasks.created()).toHaveLength(160);
  const taskIdsByDelivery = new Map<string, Set<string>>();
  all.forEach((delivery, i) => {
    const ids = taskIdsByDelivery.get(delivery.id) ?? new Set<string>();
    ids.add(bodies[i]?.taskId ?? '');
    taskIdsByDelivery.set(delivery.id, ids);
  });
  expect([...taskIdsByDelivery.values()].every((ids) => ids.size === 1)).toBe(true);
  expect(new Set([...taskIdsByDelivery.values()].flatMap((ids) => [...ids])).size).toBe(160);
  expect(bodies.filter((body) => body.duplicate)).toHaveLength(40);
});
