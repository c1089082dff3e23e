/**
 * @module index
 * Worker entry: the fetch handler and the Durable Object classes wrangler binds, and nothing a
 * cold isolate does not need before its first event. scripts/worker-build splits the upload at
 * each `import()` below, so start-up evaluates this module alone (issue 28): the first request
 * loads the app, and each Durable Object class loads its implementation with its first object
 * (durable-objects/lazy-class), so an isolate evaluates only the code of what it serves.
 */
import type { Hono } from 'hono';
import type { AppEnv } from './app.ts';
import { lazyDurableObject } from '../durable-objects/lazy-class.ts';
import type { KnowledgeScope as KnowledgeScopeClass } from '../durable-objects/knowledge.ts';
import type { PullRequestTasks as PullRequestTasksClass } from '../durable-objects/pull-request-tasks.ts';
import type { TaskIndex as TaskIndexClass } from '../durable-objects/task-index.ts';
import type { TaskObject as TaskObjectClass } from '../durable-objects/task.ts';

export const TaskObject = lazyDurableObject<TaskObjectClass>(
  () => import('../durable-objects/task.ts').then((module) => module.TaskObject),
  ['create', 'describe', 'inspect', 'beginTurn', 'readTurn', 'append', 'mailbox', 'focusOn', 'reportUsage', 'freshness', 'readSkill', 'readSource', 'check', 'alarm'],
);
export type TaskObject = TaskObjectClass;

export const TaskIndex = lazyDurableObject<TaskIndexClass>(() => import('../durable-objects/task-index.ts').then((module) => module.TaskIndex), ['record', 'list', 'earlier']);
export type TaskIndex = TaskIndexClass;

export const KnowledgeScope = lazyDurableObject<KnowledgeScopeClass>(
  () => import('../durable-objects/knowledge.ts').then((module) => module.KnowledgeScope),
  ['create', 'list', 'active', 'read', 'versions', 'revise'],
);
export type KnowledgeScope = KnowledgeScopeClass;

export const PullRequestTasks = lazyDurableObject<PullRequestTasksClass>(
  () => import('../durable-objects/pull-request-tasks.ts').then((module) => module.PullRequestTasks),
  ['lookup', 'record', 'alarm'],
);
export type PullRequestTasks = PullRequestTasksClass;

let app: Promise<Hono<AppEnv>> | undefined;

function loadApp(): Promise<Hono<AppEnv>> {
  app ??= import('./deployed-app.ts').then(
    (module) => module.app,
    (error: unknown) => {
      app = undefined; // the next request tries again
      throw error;
    },
  );
  return app;
}

export default {
  async fetch(request, env, ctx) {
    return (await loadApp()).fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
