/**
 * @module routes/knowledge
 * The REST API for repository knowledge, with the tasks API's auth, tenancy and error envelope.
 * Thin: validate, authenticate, ask auth/ whether the caller may read (or, for a person, push to)
 * the repository, call the scope's Durable Object, map its answer to a status. Tenancy is enforced
 * inside the object; another tenant's id, or one on a repository GitHub says a person cannot read,
 * is a 404 on every route.
 */
import type { Context } from 'hono';
import { Hono } from '../http/hono.ts';
import { getConfig } from '../env.ts';
import { authorOf } from '../auth/identity.ts';
import { identifiedRepositoryAccess, repositoryAccess, type Need } from '../auth/repository-access.ts';
import { accessDeps, taskAccess } from '../auth/task-access.ts';
import { accessError } from '../http/access-refusal.ts';
import { requireTenant, type TenantEnv } from '../http/bearer-auth.ts';
import { ApiError } from '../http/errors.ts';
import { grantedWriteRefused } from '../http/grant-refusal.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import { decodeCursor, encodeCursor } from '../knowledge/cursor.ts';
import { createKnowledgeSchema, editKnowledgeSchema, RetireSchema, taskKnowledgeSchema } from '../knowledge/input.ts';
import type { ListFilter, WriteResult } from '../knowledge/results.ts';
import { DUE_WITHIN_DAYS } from '../knowledge/review.ts';
import type { Knowledge } from '../context/knowledge.ts';
import { knowledgeScope, knowledgeTenant } from '../knowledge/scope.ts';
import { addDays, utcDate } from '../lib/utc-date.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { repositoryPolicy } from '../tasks/repository-identity.ts';
import { RepoSchema } from '../tasks/task-request.ts';
import { DescribeResultSchema } from '../tasks/task-results.ts';
import type { RouteDeps } from './deps.ts';
import { ListQuerySchema } from './knowledge-inputs.ts';

export function knowledgeRoutes(deps: RouteDeps): Hono<TenantEnv> {
  const app = new Hono<TenantEnv>();
  app.use('/knowledge', requireTenant);
  app.use('/knowledge/*', requireTenant);
  app.use('/tasks/:id/knowledge', requireTenant);

  const today = () => utcDate(deps.now());
  const scopeOf = (env: Env, tenant: string, repo: string) => {
    const found = knowledgeScope(tenant, repo, repositoryPolicy(getConfig(env)));
    if (!found.ok) throw new ApiError('bad_request', `repo: ${found.reason}`);
    return found.scope;
  };
  /** The repository named in a request, if the caller may use it so (a person: read, or push to change). */
  const mayUse = async (c: Context<TenantEnv>, repo: string, need: Need) => {
    const decision = await repositoryAccess(c.get('identity'), repo, need, accessDeps(c.env));
    if (!decision.ok) throw accessError(decision);
  };
  /** The object `id` names, when the caller may read it (a person: GitHub says they can read its repository; a denial is "no knowledge"). */
  const readable = async (c: Context<TenantEnv>, id: string, need: Need): Promise<Knowledge> => {
    const result = await deps.knowledge(c.env).read(knowledgeTenant(c.get('tenant')), id);
    if (result.status === 'not-found') throw new ApiError('not_found', `no knowledge ${id}`);
    const decision = await identifiedRepositoryAccess(c.get('identity'), result.knowledge.repository, need, accessDeps(c.env));
    if (decision.ok) return result.knowledge;
    if (decision.kind === 'signed-out' || decision.kind === 'unavailable') throw accessError(decision);
    // Readable but not changeable: say so; unreadable: as if it did not exist.
    if (need === 'write' && (await identifiedRepositoryAccess(c.get('identity'), result.knowledge.repository, 'read', accessDeps(c.env))).ok) throw accessError(decision);
    throw new ApiError('not_found', `no knowledge ${id}`);
  };
  const written = (result: WriteResult, id?: string) => {
    if (result.status === 'not-found') throw new ApiError('not_found', `no knowledge ${id ?? ''}`.trim());
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    return result.knowledge;
  };

  app.post('/knowledge', async (c) => {
    const { repo, ...body } = await readJsonBody(c, createKnowledgeSchema(today()));
    await mayUse(c, repo, 'write');
    const result = await deps.knowledge(c.env).create(scopeOf(c.env, c.get('tenant'), repo), { ...body, author: authorOf(c.get('identity')) });
    return c.json(written(result), 201);
  });

  app.get('/knowledge', async (c) => {
    const query = parseWith(ListQuerySchema, c.req.query());
    const status = query.status ?? 'all';
    const after = query.cursor === undefined ? undefined : decodeCursor(status, query.cursor);
    if (after && !after.ok) throw new ApiError('bad_request', `cursor: ${after.reason}`);
    const filter: ListFilter = status === 'due' ? { status, dueBy: addDays(today(), DUE_WITHIN_DAYS) } : { status };
    await mayUse(c, query.repo, 'read');
    const page = await deps.knowledge(c.env).list(scopeOf(c.env, c.get('tenant'), query.repo), filter, after?.after ?? null, query.limit);
    return c.json({ items: page.items, nextCursor: page.next ? encodeCursor(status, page.next) : null });
  });

  app.get('/knowledge/:id', async (c) => c.json(await readable(c, c.req.param('id'), 'read')));

  app.get('/knowledge/:id/versions', async (c) => {
    const id = c.req.param('id');
    await readable(c, id, 'read');
    const result = await deps.knowledge(c.env).versions(knowledgeTenant(c.get('tenant')), id);
    if (result.status === 'not-found') throw new ApiError('not_found', `no knowledge ${id}`);
    return c.json({ versions: result.versions });
  });

  app.patch('/knowledge/:id', async (c) => {
    const id = c.req.param('id');
    const body = await readJsonBody(c, editKnowledgeSchema(today()));
    await readable(c, id, 'write');
    const result = await deps.knowledge(c.env).revise(knowledgeTenant(c.get('tenant')), id, { kind: 'edit', author: authorOf(c.get('identity')), ...body });
    return c.json(written(result, id));
  });

  app.post('/knowledge/:id/retire', async (c) => {
    const id = c.req.param('id');
    const { reason } = await readJsonBody(c, RetireSchema);
    await readable(c, id, 'write');
    const result = await deps.knowledge(c.env).revise(knowledgeTenant(c.get('tenant')), id, { kind: 'retire', author: authorOf(c.get('identity')), reason });
    return c.json(written(result, id));
  });

  // A task records what it learned; its source is the task itself at the task's commit. Only the
  // task's owner may: a tenant reading it through a grant gets a 403, like every other change. A
  // person writes the repository's knowledge (knowledge/scope), so one with push access may record
  // what any task they can read learned.
  app.post('/tasks/:id/knowledge', async (c) => {
    const id = c.req.param('id');
    const tenant = c.get('tenant');
    const identity = c.get('identity');
    const stub = taskStub(c.env, id);
    const access = await taskAccess(identity, stub, accessDeps(c.env));
    if (!access.ok && access.kind !== 'not-found') throw accessError(access);
    const task = stub && access.ok ? DescribeResultSchema.parse(await stub.describe(access.caller)) : undefined;
    if (!task || task.status === 'not-found') throw new ApiError('not_found', `no task ${id}`);
    if (identity.kind === 'person') await mayUse(c, task.request.repo, 'write');
    // Recording what a task learned changes the owner's knowledge: a grant only reads.
    else if (task.request.tenant !== tenant) throw grantedWriteRefused(id, task.request.tenant, tenant);
    const body = await readJsonBody(c, taskKnowledgeSchema(today()));
    if (task.commit === null) throw new ApiError('conflict', `task ${id} has no pinned commit yet (it is ${task.status}); record knowledge once it is ready`);
    const draft = { ...body, source: { uri: `groundwork:task/${id}`, revision: task.commit }, author: authorOf(identity) };
    const result = await deps.knowledge(c.env).create(scopeOf(c.env, tenant, task.request.repo), draft);
    return c.json(written(result), 201);
  });

  const allowed: Array<[string, string]> = [
    ['/knowledge', 'GET, POST'],
    ['/knowledge/:id', 'GET, PATCH'],
    ['/knowledge/:id/versions', 'GET'],
    ['/knowledge/:id/retire', 'POST'],
    ['/tasks/:id/knowledge', 'POST'],
  ];
  for (const [path, methods] of allowed) {
    app.all(path, (c) => {
      c.header('Allow', methods);
      throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${path}; use ${methods}`);
    });
  }

  return app;
}
