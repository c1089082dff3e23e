/**
 * @module index
 * Worker entry: the fetch handler and the Durable Object classes wrangler binds, and nothing a
 * cold isolate does not need before its first event. scripts/worker-build splits the upload at
 * each `import()` below, so start-up evaluates this module alone (issue 28). A request loads the
 * route group that serves it (routes/groups), chosen here by path without loading Hono, and each
 * Durable Object class loads its implementation with its first object
 * (durable-objects/lazy-class): an isolate evaluates only the code of what it serves.
 */
import { lazyDurableObject } from '../durable-objects/lazy-class.ts';
import { envelope } from './http/errors.ts';
import { matchesPath } from './http/path-pattern.ts';
import { oncePromise } from './lib/once-promise.ts';
import type { KnowledgeScope as KnowledgeScopeClass } from '../durable-objects/knowledge.ts';
import type { PullRequestTasks as PullRequestTasksClass } from '../durable-objects/pull-request-tasks.ts';
import type { TaskIndex as TaskIndexClass } from '../durable-objects/task-index.ts';
import type { TaskIntake as TaskIntakeClass } from '../durable-objects/task-intake.ts';
import type { TaskObject as TaskObjectClass } from '../durable-objects/task.ts';

export const TaskObject = lazyDurableObject<TaskObjectClass>(
  () => import('../durable-objects/task.ts').then((module) => module.TaskObject),
  ['create', 'createFromIntake', 'repository', 'describe', 'inspect', 'beginTurn', 'readTurn', 'append', 'mailbox', 'focusOn', 'reportUsage', 'freshness', 'readSkill', 'readSource', 'rulesFor', 'skillCatalog', 'readSkillFile', 'check', 'alarm'],
);
export type TaskObject = TaskObjectClass;

export const TaskIndex = lazyDurableObject<TaskIndexClass>(() => import('../durable-objects/small-objects.ts').then((module) => module.TaskIndex), ['record', 'list', 'earlier']);
export type TaskIndex = TaskIndexClass;

export const KnowledgeScope = lazyDurableObject<KnowledgeScopeClass>(
  () => import('../durable-objects/small-objects.ts').then((module) => module.KnowledgeScope),
  ['create', 'list', 'active', 'read', 'versions', 'revise'],
);
export type KnowledgeScope = KnowledgeScopeClass;

export const PullRequestTasks = lazyDurableObject<PullRequestTasksClass>(
  () => import('../durable-objects/small-objects.ts').then((module) => module.PullRequestTasks),
  ['lookup', 'record', 'alarm'],
);
export type PullRequestTasks = PullRequestTasksClass;

export const TaskIntake = lazyDurableObject<TaskIntakeClass>(() => import('../durable-objects/small-objects.ts').then((module) => module.TaskIntake), ['accept', 'pending', 'alarm']);
export type TaskIntake = TaskIntakeClass;

type Group = 'intake' | 'pages' | 'api' | 'auth' | 'resource' | 'service';

/** What a group answers with: a Hono app, or one behind the OAuth gate (auth/api-gate). */
interface GroupApp {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response>;
}

/** Each group's app, loaded on its first request; a load that fails is tried again by the next. */
const GROUPS: Record<Group, () => Promise<GroupApp>> = {
  intake: oncePromise(() => import('./routes/groups/intake.ts').then((module) => module.app)),
  pages: oncePromise(() => import('./routes/groups/pages.ts').then((module) => module.app)),
  api: oncePromise(() => import('./routes/groups/api.ts').then((module) => module.app)),
  // Signing in with GitHub and the OAuth provider's endpoints: forwarded to the authorization
  // Worker (src/auth-worker.ts) through the AUTH_SERVER Service Binding, paths unchanged.
  auth: oncePromise(() => import('./routes/groups/auth-forward.ts').then((module) => module.app)),
  // Each protected resource's metadata (RFC 9728), served here beside the resources.
  resource: oncePromise(() => import('./routes/groups/resource-metadata.ts').then((module) => module.app)),
  // The health check, the OpenAPI document, and the 404 for any path the table does not name.
  service: oncePromise(() => import('./routes/groups/service.ts').then((module) => module.app)),
};

/**
 * The group that serves each path (http/path-pattern), first match first (a task's page before
 * the API's `/tasks/*`); any other path goes to `service`. Written out, since naming the route
 * modules' constants would load them here; test/http/route-groups.test.ts sends every route the
 * app serves through this table.
 */
const ROUTE_GROUPS: ReadonlyArray<readonly [path: string, group: Group]> = [
  ['/webhooks/github', 'intake'],
  ['/slack/commands', 'intake'],
  ['/tasks/:id/view', 'pages'],
  ['/view', 'pages'],
  ['/mcp', 'api'],
  ['/tasks', 'api'],
  ['/tasks/*', 'api'],
  ['/knowledge', 'api'],
  ['/knowledge/*', 'api'],
  ['/authorize', 'auth'],
  ['/signin', 'auth'],
  ['/signout', 'auth'],
  ['/oauth/*', 'auth'],
  ['/.well-known/oauth-authorization-server', 'auth'],
  ['/.well-known/oauth-protected-resource', 'resource'],
  ['/.well-known/oauth-protected-resource/*', 'resource'],
];

export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    const group = ROUTE_GROUPS.find(([pattern]) => matchesPath(pattern, path))?.[1] ?? 'service';
    let app: GroupApp;
    try {
      app = await GROUPS[group]();
    } catch (error) {
      const requestId = crypto.randomUUID();
      console.error(`[${requestId}] could not load the route group ${group} for ${request.method} ${path}`, error);
      return Response.json(envelope('internal', 'internal error', requestId), { status: 500, headers: { 'x-request-id': requestId } });
    }
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
