/**
 * @module durable-objects/task-wiring
 * What a Task object reads and assembles with in this deployment: its config, one outbound fetch
 * (network errors explained), the source opener (that fetch, caches and token store), the provider
 * registry and knowledge readers of assembly and read-backs, the checks' dependencies, the turn
 * ledger's assembler, and what reporting a result needs.
 * The Task object keeps the RPC surface and the lifecycle (alarms, attempts, reporting).
 */
import { knowledgeScope } from '../src/knowledge/scope.ts';
import { durableKnowledgeService } from '../src/knowledge/durable-knowledge-service.ts';
import { explainNetworkErrors } from '../src/lib/network-errors.ts';
import { getAgents, getConfig } from '../src/env.ts';
import { createDefaultRegistry } from '../src/providers/registry.ts';
import { openTaskSource, type OpenedSource } from '../src/tasks/open-source.ts';
import { repositoryPolicy } from '../src/tasks/repository-identity.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import type { CheckLogStore } from './check-log.ts';
import type { FocusLog } from './focus-log.ts';
import { createTaskAssembler } from './task-assembler.ts';
import { knowledgeLineage, type TaskCheckDeps } from './task-checks.ts';
import { earlierTasksFor } from './task-history.ts';
import type { ReadBackDeps } from './task-freshness.ts';
import type { TaskPlanDeps } from './task-plan.ts';
import type { NotifyDeps } from '../src/notify/notify-task.ts';
import type { TaskStore } from './task-store.ts';
import { TurnLedger } from './turn-ledger.ts';

export interface TaskWiring {
  agents: ReturnType<typeof getAgents>;
  openSource: (request: TaskRequest) => Promise<OpenedSource>;
  readBackDeps: ReadBackDeps;
  checkDeps: TaskCheckDeps;
  notifyDeps: NotifyDeps;
  ledger: TurnLedger;
}

/** `store`, `focus` and `checks`: the Task object's own SQLite-backed state, which assembly and checks read and write. */
export function wireTask(env: Env, state: { store: TaskStore; focus: FocusLog; checks: CheckLogStore }): TaskWiring {
  const { store, focus, checks } = state;
  const config = getConfig(env);
  const agents = getAgents();
  const outbound = explainNetworkErrors((input, init) => fetch(input, init));
  const openSource = (request: TaskRequest) => openTaskSource(request, { config, fetch: outbound, cache: env.CACHE, tokens: env.TENANTS });
  const planDeps: TaskPlanDeps = {
    registry: createDefaultRegistry(),
    deployment: config.PROVIDER_CONFIG,
    knowledgeFor: (request) => {
      const found = knowledgeScope(request.tenant, request.repo, repositoryPolicy(config));
      return found.ok ? durableKnowledgeService(env).reader(found.scope) : undefined;
    },
  };
  const checkDeps: TaskCheckDeps = {
    turns: () => store.turns(),
    log: checks,
    openSource,
    knowledgeFor: knowledgeLineage(durableKnowledgeService(env), repositoryPolicy(config)),
    now: () => Date.now(),
  };
  const ledger = new TurnLedger({
    store,
    assemble: createTaskAssembler({
      ...planDeps,
      openSource,
      pinCommit: (commit) => store.pinCommit(commit),
      history: (turn) => store.history(turn),
      record: (turn) => store.turn(turn),
      posted: focus,
      agents,
      earlierTasks: earlierTasksFor(env, config.PUBLIC_URL),
      now: () => Date.now(),
      deadlineMs: config.ASSEMBLY_TIMEOUT_MS,
    }),
  });
  const readBackDeps: ReadBackDeps = { ...planDeps, store, openSource, now: () => Date.now() };
  const notifyDeps: NotifyDeps = { config, fetch: outbound, tokens: env.TENANTS };
  return { agents, openSource, readBackDeps, checkDeps, notifyDeps, ledger };
}
