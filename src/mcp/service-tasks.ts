/**
 * @module mcp/service-tasks
 * The task tools on the Worker: the same Task objects and task service the REST routes call,
 * with the caller's tenant; another tenant's task is "no task" here as it is a 404 there, and a
 * tenant granted the owner may read but not change it. Every wait is bounded: assembly by
 * `waitMs`, reads of the repository by the Task object's own deadlines.
 */
import { formatRequest } from '../context/formats/format.ts';
import { promptFromTurn } from '../context/formats/prompt.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { getAgents, getConfig } from '../env.ts';
import { waitAtMost } from '../lib/wait-at-most.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { admissionProblem } from '../tasks/admission.ts';
import { checkBefore } from '../tasks/check-before.ts';
import { taskAgent } from '../tasks/task-agent.ts';
import { listTenantTasks } from '../tasks/durable-task-index.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { publicOrigin, stampPublicUrl } from '../tasks/public-url.ts';
import { DescribeResultSchema, FocusResultSchema, FreshnessResultSchema, MailboxResultSchema, RulesMatrixResultSchema, SkillReadResultSchema, SourceReadResultSchema, TurnResultSchema, type TaskDescription, type TurnResult } from '../tasks/task-results.ts';
import { readableTenants } from '../tasks/tenant-grants.ts';
import { taskViewUrl } from '../tasks/view-link.ts';
import { checkAnswer, freshnessAnswer, followupAnswer, notReadyAnswer, turnAnswer } from './answers.ts';
import { refusal, type GroundworkBackend, type ResourceAnswer, type ToolAnswer } from './backend.ts';
import { skillAnswer } from './skill-answer.ts';
import type { AssembleContextArgs, CheckBeforeArgs, CheckFreshnessArgs, ContextForPathsArgs, GetTurnArgs, PostFollowupArgs, ReadSkillArgs, RulesForPathsArgs } from './tool-inputs.ts';
import { rulesAnswer } from './rules-answer.ts';
import { REPORT_CLIENTS } from '../context/report-clients.ts';
import { turnUri } from './uris.ts';

export interface ServiceContext {
  env: Env;
  tenant: string;
  deps: RouteDeps;
  /** The URL the MCP request reached: links are built on its origin unless PUBLIC_URL is set. */
  requestUrl: string;
  /** How long a tool waits for a task's first turn before answering its id and status. */
  waitMs: number;
}

type TaskTools = Required<Pick<GroundworkBackend, 'assembleContext' | 'getTurn' | 'contextForPaths' | 'checkFreshness' | 'checkBefore' | 'readSkill' | 'rulesForPaths' | 'postFollowup' | 'listTurns' | 'readTurn' | 'readSource'>>;

/** How many of the caller's newest tasks `resources/list` offers a turn of. */
const LISTED_TASKS = 20;

export function serviceTaskTools(ctx: ServiceContext): TaskTools {
  const config = getConfig(ctx.env);
  const origin = publicOrigin(config.PUBLIC_URL, ctx.requestUrl);
  const noTask = (id: string) => refusal(`no task ${id} for this token: check the id assemble_context answered`, { taskId: id, status: 'not-found' });
  const viewUrl = (id: string, expiresAt: number) => taskViewUrl({ secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS }, origin, id, expiresAt, ctx.deps.now());
  const describe = async (id: string): Promise<TaskDescription | undefined> => {
    const stub = taskStub(ctx.env, id);
    const task = stub ? DescribeResultSchema.parse(await stub.describe(ctx.tenant)) : undefined;
    return task && task.status !== 'not-found' ? task : undefined;
  };
  const answerTurn = async (id: string, turn: AssembledTurn, expiresAt: number) => turnAnswer(turn, { taskId: id, viewUrl: await viewUrl(id, expiresAt) });

  /** Waits (bounded) for turn 0: the caller joins the attempt the task's alarm runs, or starts it. */
  const firstTurn = async (id: string): Promise<ToolAnswer> => {
    const stub = taskStub(ctx.env, id);
    if (!stub) return noTask(id);
    const waited = await waitAtMost(stub.beginTurn(ctx.tenant, 0).then((result): TurnResult => TurnResultSchema.parse(result)), ctx.waitMs);
    const task = await describe(id);
    if (!task) return noTask(id);
    if (waited.done && waited.value.status === 'ok') return answerTurn(id, waited.value.turn, Date.parse(task.expiresAt));
    const reason = waited.done && waited.value.status === 'failed' && task.status !== 'failed' ? (task.reason ?? waited.value.reason) : task.reason;
    return notReadyAnswer(id, task.status, reason, waited.done ? undefined : ctx.waitMs);
  };

  const refusedWrite = async (id: string): Promise<ToolAnswer> => {
    const task = await describe(id);
    if (!task) return noTask(id);
    return refusal(`task ${id} belongs to ${task.request.tenant}; this token may read it through a grant but not change it`, { taskId: id, status: 'forbidden' });
  };

  return {
    async assembleContext(args: AssembleContextArgs) {
      // As POST /tasks: the agent and its tools are this deployment's to name.
      const agent = taskAgent(ctx.deps.agents?.() ?? getAgents(), args);
      if (!agent.ok) return refusal(`${agent.field}: ${agent.message}`, { status: 'bad_request' });
      const problem = admissionProblem(config, args);
      if (problem) return refusal(problem.message, { status: problem.code });
      const created = await stampPublicUrl(ctx.deps.tasks(ctx.env), origin).create({ ...args, origin: 'mcp', tenant: ctx.tenant });
      return firstTurn(created.id);
    },

    async getTurn(args: GetTurnArgs) {
      const stub = taskStub(ctx.env, args.taskId);
      if (!stub) return noTask(args.taskId);
      const result = TurnResultSchema.parse(await stub.readTurn(ctx.tenant, args.turn));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status !== 'ok') {
        const task = await describe(args.taskId);
        if (!task) return noTask(args.taskId);
        // Turn 0 of a task still assembling is what assemble_context left to poll for.
        if (args.turn === 0 && task.status !== 'ready') return task.request.tenant === ctx.tenant ? firstTurn(args.taskId) : notReadyAnswer(args.taskId, task.status, task.reason, undefined);
        const message = result.status === 'conflict' ? result.message : result.reason;
        return refusal(`turn ${args.turn} of task ${args.taskId}: ${message}; its turns are ${task.turns.map((turn) => turn.turn).join(', ') || 'none yet'}`, { taskId: args.taskId, status: task.status });
      }
      if (args.format === undefined) {
        const task = await describe(args.taskId);
        return answerTurn(args.taskId, result.turn, task ? Date.parse(task.expiresAt) : ctx.deps.now());
      }
      const body = formatRequest(args.format, await promptFromTurn(result.turn)).body;
      return { text: JSON.stringify(body, null, 2), structured: { taskId: args.taskId, turn: args.turn, format: args.format, digest: result.turn.digest, body } };
    },

    async contextForPaths(args: ContextForPathsArgs) {
      const stub = taskStub(ctx.env, args.taskId);
      if (!stub) return noTask(args.taskId);
      // The REST route's service: the task records the focus, and its next turn adds what it brings.
      const focused = FocusResultSchema.parse(await stub.focusOn(ctx.tenant, { paths: args.paths ?? [], skills: args.skills ?? [], rules: args.rules ?? [] }));
      if (focused.status === 'not-found') return readableTenants(config.TENANT_GRANTS, ctx.tenant).length > 1 ? refusedWrite(args.taskId) : noTask(args.taskId);
      if (focused.status === 'conflict') return refusal(`task ${args.taskId}: ${focused.message}`, { taskId: args.taskId, status: 'conflict' });
      if (focused.status === 'too-large' || focused.status === 'invalid') return refusal(`${focused.field}: ${focused.message}`, { taskId: args.taskId, status: focused.status });
      const focus = { taskId: args.taskId, paths: focused.paths, skills: focused.skills, rules: focused.rules, nextTurn: focused.nextTurn };
      if (focused.paths.recorded.length + focused.skills.recorded.length + focused.rules.recorded.length === 0) {
        return { text: `Nothing new: task ${args.taskId} was already given these paths, skills and rules (${[...focused.paths.duplicates, ...focused.skills.duplicates, ...focused.rules.duplicates].join(', ')}).`, structured: focus };
      }
      const waited = await waitAtMost(stub.beginTurn(ctx.tenant, focused.nextTurn).then((result): TurnResult => TurnResultSchema.parse(result)), ctx.waitMs);
      if (!waited.done) return { ...notReadyAnswer(args.taskId, 'assembling', null, ctx.waitMs), structured: { ...focus, status: 'assembling' } };
      const turn = waited.value;
      if (turn.status !== 'ok') return refusal(`turn ${focused.nextTurn} of task ${args.taskId}: ${turn.status === 'conflict' ? turn.message : turn.status === 'failed' ? turn.reason : 'no task'}`, focus);
      const task = await describe(args.taskId);
      const answer = await answerTurn(args.taskId, turn.turn, task ? Date.parse(task.expiresAt) : ctx.deps.now());
      return { ...answer, structured: { ...answer.structured, focus } };
    },

    async checkFreshness(args: CheckFreshnessArgs) {
      const stub = taskStub(ctx.env, args.taskId);
      if (!stub) return noTask(args.taskId);
      const result = FreshnessResultSchema.parse(await stub.freshness(ctx.tenant));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status === 'conflict') return refusal(`task ${args.taskId}: ${result.message}`, { taskId: args.taskId });
      return freshnessAnswer(args.taskId, result.report);
    },

    async checkBefore(args: CheckBeforeArgs) {
      const { taskId, ...request } = args;
      // The REST route's service: the same validation (which fields the action takes), answer and record.
      const result = await checkBefore(taskStub(ctx.env, taskId), ctx.tenant, request);
      if (result.status === 'invalid') return refusal(`${result.field}: ${result.message}`, { taskId, status: 'invalid' });
      if (result.status === 'not-found') return noTask(taskId);
      if (result.status === 'conflict') return refusal(`task ${taskId}: ${result.message}`, { taskId, status: 'conflict' });
      return checkAnswer(taskId, result.check);
    },

    async readSkill(args: ReadSkillArgs) {
      const stub = taskStub(ctx.env, args.taskId);
      if (!stub) return noTask(args.taskId);
      const result = SkillReadResultSchema.parse(await stub.readSkill(ctx.tenant, args.name));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status !== 'ok') return refusal(`read_skill ${args.name}: ${'message' in result ? result.message : result.reason}`, { taskId: args.taskId, status: result.status });
      return skillAnswer(args.taskId, result.skill);
    },

    async rulesForPaths(args: RulesForPathsArgs) {
      const stub = taskStub(ctx.env, args.taskId);
      if (!stub) return noTask(args.taskId);
      const result = RulesMatrixResultSchema.parse(await stub.rulesFor(ctx.tenant, args.paths, args.clients ?? REPORT_CLIENTS));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status !== 'ok') return refusal(`rules_for_paths: ${result.reason}`, { taskId: args.taskId, status: result.status });
      return rulesAnswer(args.taskId, result.matrix);
    },

    async postFollowup(args: PostFollowupArgs) {
      const stub = taskStub(ctx.env, args.taskId);
      if (!stub) return noTask(args.taskId);
      // The REST route's key space: one client retrying over either surface posts once.
      const post = { from: args.from, text: args.text, ...(args.id === undefined ? {} : { key: `api:${args.id}` }) };
      const result = MailboxResultSchema.parse(await stub.mailbox(ctx.tenant, post));
      if (result.status === 'not-found') return readableTenants(config.TENANT_GRANTS, ctx.tenant).length > 1 ? refusedWrite(args.taskId) : noTask(args.taskId);
      if (result.status === 'conflict') return refusal(`task ${args.taskId}: ${result.message}`, { taskId: args.taskId });
      if (result.status === 'too-large') return refusal(`${result.field}: ${result.message}`, { taskId: args.taskId });
      return followupAnswer(args.taskId, result.item, result.duplicate);
    },

    async listTurns() {
      const tenants = readableTenants(config.TENANT_GRANTS, ctx.tenant);
      const page = await listTenantTasks(ctx.env, tenants, { limit: LISTED_TASKS, status: 'ready', now: ctx.deps.now() });
      return page.rows.map((row) => ({
        uri: turnUri(row.taskId, 0),
        name: `task ${row.taskId.slice(0, 12)} turn 0`,
        title: `${row.repo}: ${row.request.slice(0, 80)}`,
        mimeType: 'application/json',
      }));
    },

    async readTurn(taskId: string, turn: number): Promise<ResourceAnswer> {
      const stub = taskStub(ctx.env, taskId);
      const result = stub ? TurnResultSchema.parse(await stub.readTurn(ctx.tenant, turn)) : { status: 'not-found' as const };
      if (result.status === 'not-found') return { ok: false, message: `no task ${taskId} for this token` };
      if (result.status !== 'ok') return { ok: false, message: `turn ${turn} of task ${taskId}: ${result.status === 'conflict' ? result.message : result.reason}` };
      return { ok: true, mimeType: 'application/json', text: JSON.stringify(result.turn, null, 2), meta: { digest: result.turn.digest, commit: result.turn.commit } };
    },

    async readSource(taskId: string, path: string): Promise<ResourceAnswer> {
      const stub = taskStub(ctx.env, taskId);
      const result = stub ? SourceReadResultSchema.parse(await stub.readSource(ctx.tenant, path)) : { status: 'not-found' as const };
      if (result.status === 'not-found') return { ok: false, message: `no task ${taskId} for this token` };
      if (result.status !== 'ok') return { ok: false, message: `${path} of task ${taskId}: ${'message' in result ? result.message : result.reason}` };
      const { file } = result;
      return { ok: true, mimeType: 'text/markdown', text: file.text, meta: { path: file.path, revision: file.revision, blob: file.blob, provider: file.provider, truncated: file.truncated } };
    },
  };
}
