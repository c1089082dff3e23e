/**
 * @module mcp/service-tasks
 * The task tools on the Worker: the same Task objects and task service the REST routes call,
 * with the caller auth/ decides (a tenant, or a person on a repository GitHub says they can read);
 * another tenant's task is "no task" here as it is a 404 there, and a tenant granted the owner (a
 * person, an installation's task) may read but not change it. Every wait is bounded: assembly by
 * `waitMs` (the Task object's own notice that the task settled, as `GET /tasks/:id?wait=`),
 * reads of the repository by the Task object's own deadlines.
 */
import { formatRequest } from '../context/formats/format.ts';
import { trackedSources } from '../freshness/tracked.ts';
import { promptFromTurn } from '../context/formats/prompt.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import { getAgents, getConfig } from '../env.ts';
import type { Identity } from '../auth/identity.ts';
import { readableTaskPage } from '../auth/readable-tasks.ts';
import { repositoryAccess } from '../auth/repository-access.ts';
import { accessDeps, personTaskFields, taskAccess } from '../auth/task-access.ts';
import { callerTenant, readsOthersTasks, type TaskCaller } from '../auth/task-caller.ts';
import { waitAtMost } from '../lib/wait-at-most.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { admissionProblem } from '../tasks/admission.ts';
import { checkBefore } from '../tasks/check-before.ts';
import { taskAgent } from '../tasks/task-agent.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { publicOrigin, stampPublicUrl } from '../tasks/public-url.ts';
import { DescribeResultSchema, FocusResultSchema, FreshnessResultSchema, MailboxResultSchema, RulesMatrixResultSchema, SkillReadResultSchema, SourceReadResultSchema, TurnResultSchema, type TaskDescription, type TurnResult } from '../tasks/task-results.ts';
import { taskViewUrl } from '../tasks/view-link.ts';
import { checkAnswer, freshnessAnswer, followupAnswer, notReadyAnswer, turnAnswer } from './answers.ts';
import { refusal, type GroundworkBackend, type ResourceAnswer, type ToolAnswer } from './backend.ts';
import { skillAnswer } from './skill-answer.ts';
import type { AssembleContextArgs, CheckBeforeArgs, CheckFreshnessArgs, ContextForPathsArgs, GetTurnArgs, PostFollowupArgs, ReadSkillArgs, RulesForPathsArgs } from './tool-inputs.ts';
import { rulesAnswer } from './rules-answer.ts';
import { turnUri } from './uris.ts';

export interface ServiceContext {
  env: Env;
  tenant: string;
  /** Who calls (auth/identity); `tenant` is theirs. */
  identity: Identity;
  deps: RouteDeps;
  /** The URL the MCP request reached: links are built on its origin unless PUBLIC_URL is set. */
  requestUrl: string;
  /** How long a tool waits for a task's first turn before answering its id and status. */
  waitMs: number;
}

type TaskTools = Required<Pick<GroundworkBackend, 'assembleContext' | 'getTurn' | 'contextForPaths' | 'checkFreshness' | 'checkBefore' | 'readSkill' | 'rulesForPaths' | 'postFollowup' | 'listTurns' | 'readTurn' | 'readSource' | 'taskTurns' | 'taskSourcePaths'>>;

/** How many of the caller's newest tasks `resources/list` offers a turn of. */
const LISTED_TASKS = 20;
/** Turns a path completion reads the sources of: a completion answers while the user types. */
const COMPLETED_TURNS = 10;

export function serviceTaskTools(ctx: ServiceContext): TaskTools {
  const config = getConfig(ctx.env);
  const origin = publicOrigin(config.PUBLIC_URL, ctx.requestUrl);
  const noTask = (id: string) => refusal(`no task ${id} for this token: check the id assemble_context answered`, { taskId: id, status: 'not-found' });
  // A person opens the page signed in (see routes/tasks); a host's token gets a signed link.
  const viewUrl = async (id: string, expiresAt: number) =>
    ctx.identity.kind === 'person' ? `${origin}/tasks/${id}/view` : taskViewUrl({ secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS }, origin, id, expiresAt, ctx.deps.now());
  /** The task's object and who the caller is to it (auth/task-access), or the tool's refusal. */
  const open = async (id: string): Promise<{ ok: true; stub: NonNullable<ReturnType<typeof taskStub>>; caller: TaskCaller } | { ok: false; answer: ToolAnswer }> => {
    const stub = taskStub(ctx.env, id);
    const access = await taskAccess(ctx.identity, stub, accessDeps(ctx.env));
    if (!stub || (!access.ok && access.kind === 'not-found')) return { ok: false, answer: noTask(id) };
    if (!access.ok) return { ok: false, answer: refusal(access.message, { taskId: id, status: access.kind }) };
    return { ok: true, stub, caller: access.caller };
  };
  const describe = async (id: string, caller: TaskCaller): Promise<TaskDescription | undefined> => {
    const stub = taskStub(ctx.env, id);
    const task = stub ? DescribeResultSchema.parse(await stub.describe(caller)) : undefined;
    return task && task.status !== 'not-found' ? task : undefined;
  };
  const answerTurn = async (id: string, turn: AssembledTurn, expiresAt: number) => turnAnswer(turn, { taskId: id, viewUrl: await viewUrl(id, expiresAt) });

  /**
   * Waits (bounded) for the task to be ready or failed, as `GET /tasks/:id?wait=` does: the Task
   * object answers when its alarm's assembly settles it, so a retry after a failed attempt is
   * waited for too, and nothing polls.
   */
  const firstTurn = async (id: string, caller: TaskCaller): Promise<ToolAnswer> => {
    const stub = taskStub(ctx.env, id);
    if (!stub) return noTask(id);
    const task = DescribeResultSchema.parse(await stub.describe(caller, { waitMs: ctx.waitMs }));
    if (task.status === 'not-found') return noTask(id);
    if (task.status === 'ready') {
      // Begun, not read: a stored turn is answered as stored, and a lost transcript item is repaired.
      const turn = TurnResultSchema.parse(await stub.beginTurn(caller, 0));
      if (turn.status === 'ok') return answerTurn(id, turn.turn, Date.parse(task.expiresAt));
      return refusal(`turn 0 of task ${id}: ${turn.status === 'failed' ? turn.reason : turn.status === 'conflict' ? turn.message : 'no task'}`, { taskId: id, status: task.status });
    }
    return notReadyAnswer(id, task.status, task.reason, task.status === 'failed' ? undefined : ctx.waitMs);
  };

  const refusedWrite = async (id: string, caller: TaskCaller): Promise<ToolAnswer> => {
    const task = readsOthersTasks(config.TENANT_GRANTS, caller) ? await describe(id, caller) : undefined;
    if (!task) return noTask(id);
    const how = typeof caller === 'string' ? 'through a grant' : `because GitHub says ${callerTenant(caller)} can read its repository`;
    return refusal(`task ${id} belongs to ${task.request.tenant}; you may read it ${how} but not change it`, { taskId: id, status: 'forbidden' });
  };

  return {
    async assembleContext(args: AssembleContextArgs) {
      // As POST /tasks: the agent and its tools are this deployment's to name.
      const agent = taskAgent(ctx.deps.agents?.() ?? getAgents(), args);
      if (!agent.ok) return refusal(`${agent.field}: ${agent.message}`, { status: 'bad_request' });
      const access = await repositoryAccess(ctx.identity, args.repo, 'read', accessDeps(ctx.env));
      if (!access.ok) return refusal(access.message, { status: access.kind });
      // As POST /tasks: a person's task reads `owner/name` through the App's installation.
      const named = personTaskFields(ctx.identity, access);
      const problem = admissionProblem(config, { ...args, ...named });
      if (problem) return refusal(problem.message, { status: problem.code });
      const created = await stampPublicUrl(ctx.deps.tasks(ctx.env), origin).create({ ...args, ...named, origin: 'mcp', tenant: ctx.tenant });
      const caller: TaskCaller = ctx.identity.kind === 'person' ? { tenant: ctx.tenant, reads: named.repo ?? args.repo } : ctx.tenant;
      return firstTurn(created.id, caller);
    },

    async getTurn(args: GetTurnArgs) {
      const opened = await open(args.taskId);
      if (!opened.ok) return opened.answer;
      const { stub, caller } = opened;
      const result = TurnResultSchema.parse(await stub.readTurn(caller, args.turn));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status !== 'ok') {
        const task = await describe(args.taskId, caller);
        if (!task) return noTask(args.taskId);
        // Turn 0 of a task still assembling is what assemble_context left to poll for.
        if (args.turn === 0 && task.status !== 'ready') return task.request.tenant === ctx.tenant ? firstTurn(args.taskId, caller) : notReadyAnswer(args.taskId, task.status, task.reason, undefined);
        const message = result.status === 'conflict' ? result.message : result.reason;
        return refusal(`turn ${args.turn} of task ${args.taskId}: ${message}; its turns are ${task.turns.map((turn) => turn.turn).join(', ') || 'none yet'}`, { taskId: args.taskId, status: task.status });
      }
      if (args.format === undefined) {
        const task = await describe(args.taskId, caller);
        return answerTurn(args.taskId, result.turn, task ? Date.parse(task.expiresAt) : ctx.deps.now());
      }
      const body = formatRequest(args.format, await promptFromTurn(result.turn)).body;
      return { text: JSON.stringify(body, null, 2), structured: { taskId: args.taskId, turn: args.turn, format: args.format, digest: result.turn.digest, body } };
    },

    async contextForPaths(args: ContextForPathsArgs) {
      const opened = await open(args.taskId);
      if (!opened.ok) return opened.answer;
      const { stub, caller } = opened;
      // The REST route's service: the task records the focus, and its next turn adds what it brings.
      const focused = FocusResultSchema.parse(await stub.focusOn(caller, { paths: args.paths ?? [], skills: args.skills ?? [], rules: args.rules ?? [] }));
      if (focused.status === 'not-found') return refusedWrite(args.taskId, caller);
      if (focused.status === 'conflict') return refusal(`task ${args.taskId}: ${focused.message}`, { taskId: args.taskId, status: 'conflict' });
      if (focused.status === 'too-large' || focused.status === 'invalid') return refusal(`${focused.field}: ${focused.message}`, { taskId: args.taskId, status: focused.status });
      const focus = { taskId: args.taskId, paths: focused.paths, skills: focused.skills, rules: focused.rules, nextTurn: focused.nextTurn };
      if (focused.paths.recorded.length + focused.skills.recorded.length + focused.rules.recorded.length === 0) {
        return { text: `Nothing new: task ${args.taskId} was already given these paths, skills and rules (${[...focused.paths.duplicates, ...focused.skills.duplicates, ...focused.rules.duplicates].join(', ')}).`, structured: focus };
      }
      const waited = await waitAtMost(stub.beginTurn(caller, focused.nextTurn).then((result): TurnResult => TurnResultSchema.parse(result)), ctx.waitMs);
      if (!waited.done) return { ...notReadyAnswer(args.taskId, 'assembling', null, ctx.waitMs), structured: { ...focus, status: 'assembling' } };
      const turn = waited.value;
      if (turn.status !== 'ok') return refusal(`turn ${focused.nextTurn} of task ${args.taskId}: ${turn.status === 'conflict' ? turn.message : turn.status === 'failed' ? turn.reason : 'no task'}`, { ...focus, status: turn.status === 'not-found' ? 'not-found' : turn.status });
      const task = await describe(args.taskId, caller);
      const answer = await answerTurn(args.taskId, turn.turn, task ? Date.parse(task.expiresAt) : ctx.deps.now());
      return { ...answer, structured: { ...answer.structured, focus } };
    },

    async checkFreshness(args: CheckFreshnessArgs) {
      const opened = await open(args.taskId);
      if (!opened.ok) return opened.answer;
      const result = FreshnessResultSchema.parse(await opened.stub.freshness(opened.caller));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status === 'conflict') return refusal(`task ${args.taskId}: ${result.message}`, { taskId: args.taskId, status: 'conflict' });
      return freshnessAnswer(args.taskId, result.report);
    },

    async checkBefore(args: CheckBeforeArgs) {
      const { taskId, ...request } = args;
      const opened = await open(taskId);
      if (!opened.ok) return opened.answer;
      // The REST route's service: the same validation (which fields the action takes), answer and record.
      const result = await checkBefore(opened.stub, opened.caller, request);
      if (result.status === 'invalid') return refusal(`${result.field}: ${result.message}`, { taskId, status: 'invalid' });
      if (result.status === 'not-found') return noTask(taskId);
      if (result.status === 'conflict') return refusal(`task ${taskId}: ${result.message}`, { taskId, status: 'conflict' });
      return checkAnswer(taskId, result.check);
    },

    async readSkill(args: ReadSkillArgs) {
      const opened = await open(args.taskId);
      if (!opened.ok) return opened.answer;
      const result = SkillReadResultSchema.parse(await opened.stub.readSkill(opened.caller, args.name));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status !== 'ok') return refusal(`read_skill ${args.name}: ${'message' in result ? result.message : result.reason}`, { taskId: args.taskId, status: result.status });
      return skillAnswer(args.taskId, result.skill);
    },

    async rulesForPaths(args: RulesForPathsArgs) {
      // A person reads only a task of a repository GitHub says they may read (auth/task-access).
      const opened = await open(args.taskId);
      if (!opened.ok) return opened.answer;
      const result = RulesMatrixResultSchema.parse(await opened.stub.rulesFor(opened.caller, args.paths, args.clients));
      if (result.status === 'not-found') return noTask(args.taskId);
      if (result.status !== 'ok') return refusal(`rules_for_paths: ${result.reason}`, { taskId: args.taskId, status: result.status });
      return rulesAnswer(args.taskId, result.matrix);
    },

    async postFollowup(args: PostFollowupArgs) {
      const opened = await open(args.taskId);
      if (!opened.ok) return opened.answer;
      // The REST route's key space: one client retrying over either surface posts once.
      const post = { from: args.from, text: args.text, ...(args.id === undefined ? {} : { key: `api:${args.id}` }) };
      const result = MailboxResultSchema.parse(await opened.stub.mailbox(opened.caller, post));
      if (result.status === 'not-found') return refusedWrite(args.taskId, opened.caller);
      if (result.status === 'conflict') return refusal(`task ${args.taskId}: ${result.message}`, { taskId: args.taskId, status: 'conflict' });
      if (result.status === 'too-large') return refusal(`${result.field}: ${result.message}`, { taskId: args.taskId, status: 'too-large' });
      return followupAnswer(args.taskId, result.item, result.duplicate);
    },

    async listTurns() {
      const readable = await readableTaskPage(ctx.env, ctx.identity, { limit: LISTED_TASKS, status: 'ready', now: ctx.deps.now() }, accessDeps(ctx.env));
      // A list GitHub could not vouch for lists nothing: each turn is still a read of its own.
      if (!readable.ok) return [];
      return readable.page.rows.map((row) => ({
        uri: turnUri(row.taskId, 0),
        name: `task ${row.taskId.slice(0, 12)} turn 0`,
        title: `${row.repo}: ${row.request.slice(0, 80)}`,
        mimeType: 'application/json',
      }));
    },

    async readTurn(taskId: string, turn: number): Promise<ResourceAnswer> {
      const opened = await open(taskId);
      if (!opened.ok) return { ok: false, message: opened.answer.text };
      const result = TurnResultSchema.parse(await opened.stub.readTurn(opened.caller, turn));
      if (result.status === 'not-found') return { ok: false, message: `no task ${taskId} for this token` };
      if (result.status !== 'ok') return { ok: false, message: `turn ${turn} of task ${taskId}: ${result.status === 'conflict' ? result.message : result.reason}` };
      return { ok: true, mimeType: 'application/json', text: JSON.stringify(result.turn, null, 2), meta: { digest: result.turn.digest, commit: result.turn.commit } };
    },

    // Completions: a task the caller may not read (auth/task-access) completes to nothing.
    async taskTurns(taskId: string) {
      const opened = await open(taskId);
      return opened.ok ? ((await describe(taskId, opened.caller))?.turns ?? []).map((turn) => turn.turn) : [];
    },

    async taskSourcePaths(taskId: string) {
      const opened = await open(taskId);
      if (!opened.ok) return [];
      const turns = ((await describe(taskId, opened.caller))?.turns ?? []).slice(0, COMPLETED_TURNS);
      const read = await Promise.all(turns.map(async ({ turn }) => TurnResultSchema.parse(await opened.stub.readTurn(opened.caller, turn))));
      const entries = read.flatMap((result) => (result.status === 'ok' ? result.turn.entries : []));
      return trackedSources(entries).flatMap((source) => (source.kind === 'file' ? [source.path] : []));
    },

    async readSource(taskId: string, path: string): Promise<ResourceAnswer> {
      const opened = await open(taskId);
      if (!opened.ok) return { ok: false, message: opened.answer.text };
      const result = SourceReadResultSchema.parse(await opened.stub.readSource(opened.caller, path));
      if (result.status === 'not-found') return { ok: false, message: `no task ${taskId} for this token` };
      if (result.status !== 'ok') return { ok: false, message: `${path} of task ${taskId}: ${'message' in result ? result.message : result.reason}` };
      const { file } = result;
      return { ok: true, mimeType: 'text/markdown', text: file.text, meta: { path: file.path, revision: file.revision, blob: file.blob, provider: file.provider, truncated: file.truncated } };
    },
  };
}
