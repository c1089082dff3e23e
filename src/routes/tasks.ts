/**
 * @module routes/tasks
 * The REST API for tasks. Thin: validate, authenticate, ask auth/ who the caller is to the task's
 * Durable Object, call it, map its answer to a status. Tenancy is enforced inside the object;
 * another tenant's task (or one on a repository GitHub says a person cannot read) is a 404.
 */
import type { Context } from 'hono';
import { Hono } from '../http/hono.ts';
import { formatRequest } from '../context/formats/format.ts';
import { promptFromTurn } from '../context/formats/prompt.ts';
import { getAgents, getConfig } from '../env.ts';
import { readableTaskPage } from '../auth/readable-tasks.ts';
import { repositoryAccess } from '../auth/repository-access.ts';
import { accessDeps, personTaskFields, taskAccess } from '../auth/task-access.ts';
import { callerTenant, readsOthersTasks, type TaskCaller } from '../auth/task-caller.ts';
import { accessError } from '../http/access-refusal.ts';
import { requireTenant, type TenantEnv } from '../http/bearer-auth.ts';
import { ApiError } from '../http/errors.ts';
import { grantedWriteRefused } from '../http/grant-refusal.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import { listViewUrl } from '../tasks/list-link.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { publicOrigin, stampPublicUrl } from '../tasks/public-url.ts';
import { parseListQuery } from '../http/list-query.ts';
import { taskViewUrl } from '../tasks/view-link.ts';
import { admissionProblem } from '../tasks/admission.ts';
import { taskAgent } from '../tasks/task-agent.ts';
import { AppendResultSchema, DescribeResultSchema, FocusResultSchema, FreshnessResultSchema, MailboxResultSchema, TurnResultSchema, UsageResultSchema } from '../tasks/task-results.ts';
import { MAX_USAGE_BYTES, UsageReportSchema } from '../tasks/turn-usage.ts';
import { AppendTranscriptSchema } from '../tasks/transcript.ts';
import { checkBefore } from '../tasks/check-before.ts';
import { CheckRequestSchema } from '../checks/check-request.ts';
import type { RouteDeps } from './deps.ts';
import { BeginTurnSchema, CreateTaskSchema, FocusPostSchema, FormatParam, MailboxPostSchema, TurnParam, WaitParam } from './task-inputs.ts';

export function taskRoutes(deps: RouteDeps): Hono<TenantEnv> {
  const app = new Hono<TenantEnv>();
  app.use('/tasks', requireTenant);
  app.use('/tasks/*', requireTenant);

  const stubFor = (env: Env, id: string) => {
    const stub = taskStub(env, id);
    if (!stub) throw new ApiError('not_found', `no task ${id}`);
    return stub;
  };
  const notFound = (id: string) => new ApiError('not_found', `no task ${id}`);
  /**
   * A signed link for a host's token; a person gets the page itself, which they open signed in
   * (a signed link would let anyone they pass it to read a repository GitHub keeps from them).
   */
  const viewUrl = (c: Context<TenantEnv>, id: string, expiresAt: number): Promise<string | null> => {
    const config = getConfig(c.env);
    const origin = publicOrigin(config.PUBLIC_URL, c.req.url);
    if (c.get('identity').kind === 'person') return Promise.resolve(`${origin}/tasks/${id}/view`);
    return taskViewUrl({ secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS }, origin, id, expiresAt, deps.now());
  };
  /** The task's object and who the caller is to it (auth/task-access), or the refusal. */
  const open = async (c: Context<TenantEnv>, id: string): Promise<{ stub: ReturnType<typeof stubFor>; caller: TaskCaller }> => {
    const stub = stubFor(c.env, id);
    const access = await taskAccess(c.get('identity'), stub, accessDeps(c.env));
    if (access.ok) return { stub, caller: access.caller };
    if (access.kind === 'not-found') throw notFound(id);
    throw accessError(access);
  };
  /** A write refused as not-found: 403 when the caller may read the task (a grant, or a person on its repository), else 404. */
  const refusedWrite = async (c: Context<TenantEnv>, id: string, caller: TaskCaller): Promise<ApiError> => {
    if (readsOthersTasks(getConfig(c.env).TENANT_GRANTS, caller)) {
      const task = DescribeResultSchema.parse(await stubFor(c.env, id).describe(caller));
      if (task.status !== 'not-found') return grantedWriteRefused(id, task.request.tenant, callerTenant(caller));
    }
    return notFound(id);
  };

  app.get('/tasks', async (c) => {
    const query = parseListQuery(c.req.queries());
    const config = getConfig(c.env);
    const readable = await readableTaskPage(c.env, c.get('identity'), { ...query, after: query.cursor, now: deps.now() }, accessDeps(c.env));
    if (!readable.ok) throw accessError(readable);
    const { page } = readable;
    const tasks = await Promise.all(
      page.rows.map(async (row) => ({
        id: row.taskId,
        tenant: row.tenant,
        status: row.status,
        reason: row.reason,
        origin: row.origin,
        repo: row.repo,
        agent: row.agent,
        request: row.request,
        commit: row.commit,
        createdAt: new Date(row.createdAt).toISOString(),
        updatedAt: new Date(row.updatedAt).toISOString(),
        expiresAt: new Date(row.expiresAt).toISOString(),
        viewUrl: await viewUrl(c, row.taskId, row.expiresAt),
      })),
    );
    const origin = publicOrigin(config.PUBLIC_URL, c.req.url);
    const listUrl = c.get('identity').kind === 'person' ? `${origin}/view` : await listViewUrl({ secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS }, origin, c.get('tenant'), deps.now());
    return c.json({ tasks, nextCursor: page.next, viewUrl: listUrl });
  });

  app.post('/tasks', async (c) => {
    const body = await readJsonBody(c, CreateTaskSchema);
    const tenant = c.get('tenant');
    const identity = c.get('identity');
    // The task service checks again (every trigger goes through it); here it comes before any lookup.
    const agent = taskAgent(deps.agents?.() ?? getAgents(), body);
    if (!agent.ok) throw new ApiError('bad_request', `${agent.field}: ${agent.message}`);
    // A person names a repository GitHub says they can read; its App installation reads it for them.
    const access = await repositoryAccess(identity, body.repo, 'read', accessDeps(c.env));
    if (!access.ok) throw accessError(access);
    if (body.parentTaskId) {
      const stub = taskStub(c.env, body.parentTaskId);
      const parentAccess = await taskAccess(identity, stub, accessDeps(c.env));
      const parent = stub && parentAccess.ok ? DescribeResultSchema.parse(await stub.describe(parentAccess.caller)) : undefined;
      if (!parent || parent.status === 'not-found') {
        throw new ApiError('bad_request', `parentTaskId: no task ${body.parentTaskId}`);
      }
    }
    const config = getConfig(c.env);
    // A person's task reads `owner/name` through the installation, however they named it.
    const named = personTaskFields(identity, access);
    const problem = admissionProblem(config, { ...body, ...named });
    if (problem) throw new ApiError(problem.code, problem.message);
    const origin = publicOrigin(config.PUBLIC_URL, c.req.url);
    const created = await stampPublicUrl(deps.tasks(c.env), origin).create({ ...body, ...named, tenant });
    const retained = deps.now() + config.TASK_RETENTION_DAYS * 86_400_000;
    // Where the task is read; `?wait=` there answers once it is ready or failed.
    c.header('Location', `${origin}/tasks/${created.id}`);
    return c.json({ id: created.id, status: created.status, viewUrl: await viewUrl(c, created.id, retained) }, 202);
  });

  app.get('/tasks/:id', async (c) => {
    const id = c.req.param('id');
    const wait = waitSeconds(c.req.queries('wait'));
    const { stub, caller } = await open(c, id);
    const task = DescribeResultSchema.parse(await stub.describe(caller, wait === undefined ? {} : { waitMs: wait * 1000 }));
    if (task.status === 'not-found') throw notFound(id);
    return c.json({ ...task, viewUrl: await viewUrl(c, task.id, Date.parse(task.expiresAt)) });
  });

  app.get('/tasks/:id/turns/:n', async (c) => {
    const id = c.req.param('id');
    const turn = parseWith(TurnParam, c.req.param('n'), 'n');
    const format = parseWith(FormatParam, c.req.query('format'), 'format');
    const { stub, caller } = await open(c, id);
    const result = TurnResultSchema.parse(await stub.readTurn(caller, turn));
    if (result.status === 'not-found') throw notFound(id);
    if (result.status !== 'ok') throw new ApiError('not_found', result.status === 'conflict' ? result.message : result.reason);
    if (!format) return c.json(result.turn);
    return c.json(formatRequest(format, await promptFromTurn(result.turn)).body);
  });

  app.post('/tasks/:id/turns', async (c) => {
    const id = c.req.param('id');
    const { stub, caller } = await open(c, id);
    const { turn } = await readJsonBody(c, BeginTurnSchema);
    const result = TurnResultSchema.parse(await stub.beginTurn(caller, turn));
    if (result.status === 'not-found') throw await refusedWrite(c, id, caller);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    if (result.status === 'failed') throw new ApiError('conflict', `turn ${turn} could not be assembled: ${result.reason}`);
    return c.json(result.turn);
  });

  // What the model API answered about the turn's request: idempotent per turn, small by nature.
  app.post('/tasks/:id/turns/:n/usage', async (c) => {
    const id = c.req.param('id');
    const turn = parseWith(TurnParam, c.req.param('n'), 'n');
    const { stub, caller } = await open(c, id);
    const report = await readJsonBody(c, UsageReportSchema, MAX_USAGE_BYTES);
    const result = UsageResultSchema.parse(await stub.reportUsage(caller, turn, report));
    if (result.status === 'not-found') throw await refusedWrite(c, id, caller);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    return c.json({ usage: result.usage, duplicate: result.duplicate }, result.duplicate ? 200 : 201);
  });

  app.post('/tasks/:id/transcript', async (c) => {
    const id = c.req.param('id');
    const { stub, caller } = await open(c, id);
    const { items } = await readJsonBody(c, AppendTranscriptSchema);
    const result = AppendResultSchema.parse(await stub.append(caller, items));
    if (result.status === 'not-found') throw await refusedWrite(c, id, caller);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    if (result.status === 'invalid') throw new ApiError('bad_request', `${result.field}: ${result.message}`);
    if (result.status === 'too-large') throw new ApiError('payload_too_large', result.message);
    return c.json({ appended: result.appended, duplicates: result.duplicates });
  });

  app.post('/tasks/:id/mailbox', async (c) => {
    const id = c.req.param('id');
    const { stub, caller } = await open(c, id);
    const body = await readJsonBody(c, MailboxPostSchema);
    const post = { from: body.from, text: body.text, ...(body.id === undefined ? {} : { key: `api:${body.id}` }) };
    const result = MailboxResultSchema.parse(await stub.mailbox(caller, post));
    if (result.status === 'not-found') throw await refusedWrite(c, id, caller);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    if (result.status === 'too-large') throw new ApiError('payload_too_large', `${result.field}: ${result.message}`);
    return c.json({ item: result.item, duplicate: result.duplicate }, result.duplicate ? 200 : 201);
  });

  // Where the agent moved: the next turn to begin adds the rules those paths bring, and the skills asked for.
  app.post('/tasks/:id/paths', async (c) => {
    const id = c.req.param('id');
    const { stub, caller } = await open(c, id);
    const body = await readJsonBody(c, FocusPostSchema);
    const result = FocusResultSchema.parse(await stub.focusOn(caller, { paths: body.paths ?? [], skills: body.skills ?? [], rules: body.rules ?? [] }));
    if (result.status === 'not-found') throw await refusedWrite(c, id, caller);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    if (result.status === 'too-large') throw new ApiError('payload_too_large', `${result.field}: ${result.message}`);
    if (result.status === 'invalid') throw new ApiError('bad_request', `${result.field}: ${result.message}`);
    const recorded = result.paths.recorded.length + result.skills.recorded.length + result.rules.recorded.length > 0;
    return c.json({ paths: result.paths, skills: result.skills, rules: result.rules, nextTurn: result.nextTurn }, recorded ? 201 : 200);
  });

  // Reads the repository and the ledger, never writes: a host asks before pushing or reporting.
  app.get('/tasks/:id/freshness', async (c) => {
    const id = c.req.param('id');
    const { stub, caller } = await open(c, id);
    const result = FreshnessResultSchema.parse(await stub.freshness(caller));
    if (result.status === 'not-found') throw notFound(id);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    return c.json(result.report);
  });

  // Reads what the action depends on and records the answer on the task; never the transcript.
  app.post('/tasks/:id/checks', async (c) => {
    const id = c.req.param('id');
    const { stub, caller } = await open(c, id);
    const body = await readJsonBody(c, CheckRequestSchema);
    const result = await checkBefore(stub, caller, body);
    if (result.status === 'invalid') throw new ApiError('bad_request', `${result.field}: ${result.message}`);
    if (result.status === 'not-found') throw notFound(id);
    if (result.status === 'conflict') throw new ApiError('conflict', result.message);
    return c.json(result.check);
  });

  // Known paths with another method: 405 naming what is allowed, not a misleading 404.
  const allowed: Array<[string, string]> = [
    ['/tasks', 'GET, POST'],
    ['/tasks/:id', 'GET'],
    ['/tasks/:id/turns', 'POST'],
    ['/tasks/:id/turns/:n', 'GET'],
    ['/tasks/:id/turns/:n/usage', 'POST'],
    ['/tasks/:id/transcript', 'POST'],
    ['/tasks/:id/freshness', 'GET'],
    ['/tasks/:id/mailbox', 'POST'],
    ['/tasks/:id/paths', 'POST'],
    ['/tasks/:id/checks', 'POST'],
  ];
  for (const [path, method] of allowed) {
    app.all(path, (c) => {
      c.header('Allow', method);
      throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${path}; use ${method}`);
    });
  }

  return app;
}

/** `?wait=` once, in plain decimal seconds up to MAX_TASK_WAIT_SECONDS; absent, no wait. */
function waitSeconds(values: string[] | undefined): number | undefined {
  if (values === undefined) return undefined;
  if (values.length > 1) throw new ApiError('bad_request', 'wait: give it once');
  return parseWith(WaitParam, values[0], 'wait');
}
