/**
 * @module index
 * Worker entry: the fetch handler and the Durable Object classes wrangler binds, and nothing a
 * cold isolate does not need before its first event. scripts/worker-build splits the upload at
 * each `import()` below, so start-up evaluates this module alone (issue 28). A request loads the
 * route group that serves it (routes/groups), and each Durable Object class loads its
 * implementation with its first object (durable-objects/lazy-class): an isolate evaluates only
 * the code of what it serves. The health check, the OpenAPI document and unknown paths are
 * answered here.
 */
import { Hono } from 'hono';
import { lazyDurableObject } from '../durable-objects/lazy-class.ts';
import type { AppEnv } from './http/app-env.ts';
import { envelope } from './http/errors.ts';
import { routedApp } from './http/routed-app.ts';
import { serviceRoutes } from './routes/service.ts';
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

type Group = 'intake' | 'pages' | 'mcp' | 'api';

const GROUPS: Record<Group, () => Promise<{ app: Hono<AppEnv> }>> = {
  intake: () => import('./routes/groups/intake.ts'),
  pages: () => import('./routes/groups/pages.ts'),
  mcp: () => import('./routes/groups/mcp.ts'),
  api: () => import('./routes/groups/api.ts'),
};

/**
 * The group that serves each path, first match first (a task's page before the API's `/tasks/*`).
 * Written out, since naming the route modules' constants would load them here;
 * test/http/route-groups.test.ts sends every route the app serves through this table.
 */
export const ROUTE_GROUPS: ReadonlyArray<readonly [path: string, group: Group]> = [
  ['/webhooks/github', 'intake'],
  ['/slack/commands', 'intake'],
  ['/tasks/:id/view', 'pages'],
  ['/view', 'pages'],
  ['/mcp', 'mcp'],
  ['/tasks', 'api'],
  ['/tasks/*', 'api'],
  ['/knowledge', 'api'],
  ['/knowledge/*', 'api'],
];

const loaded = new Map<Group, Promise<Hono<AppEnv>>>();

function loadGroup(group: Group): Promise<Hono<AppEnv>> {
  let app = loaded.get(group);
  if (!app) {
    app = GROUPS[group]().then(
      (module) => module.app,
      (error: unknown) => {
        loaded.delete(group); // the next request tries again
        throw error;
      },
    );
    loaded.set(group, app);
  }
  return app;
}

const entry = new Hono<AppEnv>();
for (const [path, group] of ROUTE_GROUPS) entry.all(path, async (c) => (await loadGroup(group)).fetch(c.req.raw, c.env, c.executionCtx));
const service = routedApp((app) => app.route('/', serviceRoutes()));
entry.all('*', (c) => service.fetch(c.req.raw, c.env, c.executionCtx));
// A group that cannot load: the group's own handler answers everything else.
entry.onError((error, c) => {
  const requestId = crypto.randomUUID();
  console.error(`[${requestId}] could not load the route group for ${c.req.method} ${c.req.path}`, error);
  return c.json(envelope('internal', 'internal error', requestId), 500, { 'x-request-id': requestId });
});

export default entry satisfies ExportedHandler<Env>;
