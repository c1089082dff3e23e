// The Worker's entry exports each Durable Object class as a lazy front (durable-objects/lazy-class)
// that forwards the methods it names; a public method left off its list would be unreachable over
// RPC. Every other test of an object goes through these fronts (wrangler.toml binds them).
import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { KnowledgeScope as KnowledgeImplementation } from '../../durable-objects/knowledge.ts';
import { PullRequestTasks as PullRequestImplementation } from '../../durable-objects/pull-request-tasks.ts';
import { TaskIndex as TaskIndexImplementation } from '../../durable-objects/task-index.ts';
import { TaskIntake as TaskIntakeImplementation } from '../../durable-objects/task-intake.ts';
import { TaskObject as TaskImplementation } from '../../durable-objects/task.ts';
import { KnowledgeScope, PullRequestTasks, TaskIndex, TaskIntake, TaskObject } from '../../src/index.ts';

/** Methods a class's prototype chain defines below DurableObject, private ones (`#x`) aside. */
function publicMethods(prototype: object): string[] {
  const names = new Set<string>();
  for (let at = prototype; at !== Object.prototype && Object.getPrototypeOf(at) !== null; at = Object.getPrototypeOf(at)) {
    if (at.constructor.name === 'DurableObject') break;
    for (const name of Object.getOwnPropertyNames(at)) if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(at, name)?.value === 'function') names.add(name);
  }
  return [...names].sort();
}

describe('the lazy Durable Object classes the Worker exports', () => {
  it.each([
    ['TaskObject', TaskObject, TaskImplementation],
    ['TaskIndex', TaskIndex, TaskIndexImplementation],
    ['KnowledgeScope', KnowledgeScope, KnowledgeImplementation],
    ['PullRequestTasks', PullRequestTasks, PullRequestImplementation],
    ['TaskIntake', TaskIntake, TaskIntakeImplementation],
  ])('%s forwards every public method of its implementation', (_name, front, implementation) => {
    expect(publicMethods(implementation.prototype)).not.toEqual([]);
    expect(publicMethods(front.prototype)).toEqual(publicMethods(implementation.prototype));
  });

  it('answer RPC and their alarms through the implementation they load', async () => {
    // A pull request's index, through the front wrangler.toml binds: its migrations ran before
    // the first call (the implementation's constructor), and `alarm` reaches the implementation.
    const stub = env.PULL_REQUESTS.get(env.PULL_REQUESTS.idFromName('lazy-class-test/acme/widgets#1'));
    await stub.record('delivery-1', { kind: 'task', taskId: 'task-1' });
    expect(await stub.lookup('delivery-1')).toMatchObject({ latest: 'task-1', routed: { kind: 'task', taskId: 'task-1' } });
    // The retention alarm it armed empties it.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stub.lookup('delivery-1')).toMatchObject({ latest: null, routed: null });
  });
});
