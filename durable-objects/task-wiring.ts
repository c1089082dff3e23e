/**
 * @module durable-objects/task-wiring
 * What a Task object does with the world in this deployment: assembly (the ledger's assembler,
 * the provider registry, the source opener), the file reads and read-backs, the checks before an
 * action, and reporting a result. The Task object keeps the RPC surface, its own state and the
 * lifecycle (alarms, attempts, reporting), and loads this module the first time it needs one of
 * these (`import()`): most objects are created by a delivery and do nothing else until their
 * alarm, so a cold isolate's accept path never evaluates the assembly code (issue 28).
 */
import { knowledgeScope } from '../src/knowledge/scope.ts';
import { durableKnowledgeService } from '../src/knowledge/durable-knowledge-service.ts';
import { explainNetworkErrors } from '../src/lib/network-errors.ts';
import type { CheckRequestInput } from '../src/checks/check-request.ts';
import { getAgents, getConfig } from '../src/env.ts';
import { notifyTaskResult } from '../src/notify/notify-task.ts';
import { taskReport } from './task-report.ts';
import { createDefaultRegistry } from '../src/providers/registry.ts';
import { buildReadAheadChecks } from '../src/sources/github/graphql-answer.ts';
import { buildFilesChecks } from '../src/sources/github/pull-request-files.ts';
import { RulesConfigSchema } from '../src/providers/rules/config.ts';
import { buildSchemas } from '../src/lib/lazy-schema.ts';
import { openTaskSource } from '../src/tasks/open-source.ts';
import { repositoryPolicy } from '../src/tasks/repository-identity.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import type { TokenAhead } from '../src/tasks/token-ahead.ts';
import type { CheckResultRpc, FreshnessResult, SkillCatalogResult, SkillFileResult, SkillReadResult, SourceReadResult } from '../src/tasks/task-results.ts';
import type { CheckLogStore } from './check-log.ts';
import type { FocusLog } from './focus-log.ts';
import { createTaskAssembler } from './task-assembler.ts';
import { checkOnRequest, knowledgeLineage } from './task-checks.ts';
import { readTaskSkill, readTaskSource } from './task-files.ts';
import { readTaskSkillFile, taskSkillCatalog } from './task-skills.ts';
import { readBackTask } from './task-freshness.ts';
import { taskRulesMatrix, type TaskRulesQuery } from './task-rules.ts';
import type { RulesReportResult } from '../src/notify/rules-report.ts';
import type { Snapshot } from '../src/sources/snapshot.ts';
import { CacheWrites } from './cache-writes.ts';
import { earlierTasksFor } from './task-history.ts';
import { rehearseFirstTurn } from './first-turn-rehearsal.ts';
import { RequestSignal } from './request-signal.ts';
import { turnZeroPlan, type TaskPlanDeps } from './task-plan.ts';
import type { TaskRow, TaskStore } from './task-store.ts';
import { TurnLedger } from './turn-ledger.ts';

/** How long an assembly's invocation waits for its cache writes once its turn is reported. */
const WRITES_DEADLINE_MS = 10_000;
/** How long a read through the cache waits for an earlier assembly's writes before it reads anyway. */
const READ_WAITS_FOR_WRITES_MS = 2_000;

export interface TaskWiring {
  agents: ReturnType<typeof getAgents>;
  ledger: TurnLedger;
  /** A skill of the task's index at its commit, read whole, with its bundled files. */
  readSkill(task: TaskRow, name: string): Promise<SkillReadResult>;
  /** A rules or skill file the task was given, at the commit it was read at. */
  readSource(task: TaskRow, path: string): Promise<SourceReadResult>;
  /** The skills the MCP skills extension serves of the task, and one file of them (task-skills). */
  skillCatalog(task: TaskRow): Promise<SkillCatalogResult>;
  readSkillFile(task: TaskRow, path: string): Promise<SkillFileResult>;
  /** What one consequential action depends on, read and recorded (task-checks). */
  check(task: TaskRow, input: CheckRequestInput): Promise<Exclude<CheckResultRpc, { status: 'not-found' }>>;
  /** What changed since the task was pinned, for every source that reached the model. */
  readBack(task: TaskRow): Promise<Exclude<FreshnessResult, { status: 'not-found' }>>;
  /**
   * Reports a finished task where it came from (a check run, a Slack response): its turn 0 or its
   * failure, and for a pull request's check run the rules report for its changed paths.
   */
  report(task: TaskRow, outcome: { status: 'ready' | 'failed'; reason: string | null }): Promise<void>;
  /** The rules matrix at the task's commit: a check run's rules report, MCP `rules_for_paths`. */
  rules(task: TaskRow, query: TaskRulesQuery): Promise<RulesReportResult>;
  /**
   * Resolves once the cache writes of every assembly so far are done (never rejects): a turn is
   * stored and reported without waiting for them, and the invocation that made it waits here.
   */
  writesDone(): Promise<void>;
}

/**
 * `store`, `focus` and `checks`: the Task object's own SQLite-backed state, which assembly and checks
 * read and write. `ahead`: takes the installation token's exchange the attempt began before this
 * loaded (tasks/token-ahead), for the assembly that opens the task's source next. `requested`: told
 * just before each request is handed to the network (request-signal).
 */
export function wireTask(env: Env, state: { store: TaskStore; focus: FocusLog; checks: CheckLogStore; ahead?: () => TokenAhead | undefined; requested?: () => void }): TaskWiring {
  const { store, focus, checks } = state;
  const config = getConfig(env);
  const agents = getAgents();
  // The wiring's own requests leaving, for the rehearsal's reads (`prepare`), which wait for the next one.
  const sent = new RequestSignal();
  const outbound = explainNetworkErrors((input, init) => {
    state.requested?.();
    sent.sent();
    return fetch(input, init);
  });
  // The cache writes of assemblies, waited for after their turns are stored and reported, each
  // assembly's for at most WRITES_DEADLINE_MS; and before a read through the cache (cache-writes).
  const writes = new CacheWrites(WRITES_DEADLINE_MS);
  const openSource = async (request: TaskRequest) => {
    await writes.landed(READ_WAITS_FOR_WRITES_MS);
    return openTaskSource(request, { config, fetch: outbound, cache: env.CACHE, tokens: env.TENANTS });
  };
  // An assembly's cache writes start once its turn is stored and reported (`writesDone`), so they
  // do not keep KV busy while it waits on its own reads; an earlier assembly's it waits for.
  const openForAssembly = async (request: TaskRequest) => {
    const ahead = state.ahead?.();
    await writes.landed(READ_WAITS_FOR_WRITES_MS);
    return openTaskSource(request, { config, fetch: outbound, cache: env.CACHE, tokens: env.TENANTS, holdWrites: true, ahead, readAheadsAfter: () => sent.next() });
  };
  const planDeps: TaskPlanDeps = {
    registry: createDefaultRegistry(),
    deployment: config.PROVIDER_CONFIG,
    knowledgeFor: (request) => {
      const found = knowledgeScope(request.tenant, request.repo, repositoryPolicy(config));
      return found.ok ? durableKnowledgeService(env).reader(found.scope) : undefined;
    },
  };
  // The snapshot the last turn 0 was assembled from, until the pull request's report takes it.
  let turnZero: Snapshot | undefined;
  const takeTurnZero = (): Snapshot | undefined => {
    const taken = turnZero;
    turnZero = undefined;
    return taken;
  };
  const ledger = new TurnLedger({
    store,
    assemble: createTaskAssembler({
      ...planDeps,
      openSource: openForAssembly,
      pinCommit: (commit) => store.pinCommit(commit),
      history: (turn) => store.history(turn),
      record: (turn) => store.turn(turn),
      posted: focus,
      agents,
      earlierTasks: earlierTasksFor(env, config.PUBLIC_URL, { secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS }),
      now: () => Date.now(),
      deadlineMs: config.ASSEMBLY_TIMEOUT_MS,
      assembledFrom: (snapshot) => (turnZero = snapshot),
      writesBehind: (settled) => writes.add(settled),
      prepare: (task, agent) => {
        buildReadAheadChecks();
        buildFilesChecks();
        // A check run's rules report reads turn 0's rules settings with this.
        if (task.request.notify?.kind === 'github-check') buildSchemas(RulesConfigSchema);
        // Its reads once the turn's next request is out: the pull request's files, in a cold isolate.
        void rehearseFirstTurn({ registry: planDeps.registry, agent, clients: config.CHECK_RUN_CLIENTS, readsAfter: () => sent.next() });
      },
    }),
  });
  const rules = (task: TaskRow, query: TaskRulesQuery) => {
    const pinned = query.paths ? undefined : takeTurnZero();
    return taskRulesMatrix(task, query, { store, openSource, turnZeroPlan: (row, opened) => turnZeroPlan(planDeps, row, agents, opened, store.turn(0)?.focus), ...(pinned ? { pinned } : {}) });
  };
  const checkDeps = {
    turns: () => store.turns(),
    log: checks,
    openSource,
    knowledgeFor: knowledgeLineage(durableKnowledgeService(env), repositoryPolicy(config)),
    now: () => Date.now(),
  };
  return {
    agents,
    ledger,
    readSkill: (task, name) => readTaskSkill(task, name, { store, openSource }),
    readSource: (task, path) => readTaskSource(task, path, { store, openSource }),
    skillCatalog: (task) => taskSkillCatalog(task, { store, openSource, cache: env.CACHE }),
    readSkillFile: (task, path) => readTaskSkillFile(task, path, { store, openSource, cache: env.CACHE }),
    check: (task, input) => checkOnRequest(task, input, checkDeps),
    readBack: (task) => readBackTask(task, agents, { ...planDeps, store, posted: focus, openSource, now: () => Date.now() }),
    rules,
    writesDone: () => writes.done(),
    report: async (task, outcome) => {
      if (!task.request.notify) return;
      const report = outcome.status === 'ready' && task.request.notify.kind === 'github-check' ? await rules(task, { defaultClients: config.CHECK_RUN_CLIENTS }) : undefined;
      const result = await taskReport(config, store, task, outcome, Date.now(), report);
      await notifyTaskResult({ config, fetch: outbound, tokens: env.TENANTS }, task.request.notify, result);
    },
  };
}
