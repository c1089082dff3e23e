/**
 * @module durable-objects/task-plan
 * What a stored task's providers will be given and will read, worked out from its request and
 * its opened source: the task view before the commit is pinned, the capabilities this host
 * grants, the settings layers, and turn 0's read plan. That plan goes with the pinned snapshot
 * on every turn and in the read-back: they read the commit turn 0 read, so what the source
 * fetched ahead for it (cached under the plan) serves them too.
 */
import type { AgentCatalog } from '../src/context/agent-catalog.ts';
import type { AgentConfig } from '../src/context/agents.ts';
import { clientOf } from '../src/context/client.ts';
import type { KnowledgeReader } from '../src/context/knowledge.ts';
import type { Capability, TaskView } from '../src/context/provider.ts';
import { planReads } from '../src/context/read-ahead.ts';
import type { Registry } from '../src/context/registry.ts';
import type { HostSettings } from '../src/context/settings/settle.ts';
import type { SettingsLayer } from '../src/context/settings/layer.ts';
import type { ReadPlan } from '../src/sources/read-plan.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import { NO_FOCUS, type FocusPaths } from '../src/tasks/turn-focus.ts';
import { storedAgent } from './stored-agent.ts';
import type { TaskRow } from './task-store.ts';

export interface TaskPlanDeps {
  registry: Registry;
  /** The deployment's provider settings (`PROVIDER_CONFIG`); the task's own and the repository's are layered over them. */
  deployment?: SettingsLayer;
  /** The task's knowledge scope (its tenant and repository), when this host keeps knowledge. */
  knowledgeFor?(request: TaskRequest): KnowledgeReader | undefined;
}

export interface TaskPlan {
  /** The task view without its commit. */
  view: TaskView;
  available: Capability[];
  settings: HostSettings;
  knowledge?: KnowledgeReader;
  plan: ReadPlan;
}

/** What a task that names no ref is resolved from: the repository's default branch. */
export const DEFAULT_REF = 'HEAD';

/** A pull request's task comes pinned at its base; any other is resolved from the ref it named. */
export function namedRef(request: Pick<TaskRequest, 'ref' | 'baseCommit'>): { ref?: string } {
  return request.baseCommit === undefined ? { ref: request.ref ?? DEFAULT_REF } : {};
}

/**
 * `focus` is turn 0's: every turn plans with it, so every turn's snapshot is the one turn 0 read
 * ahead (a later turn's own new paths are read outside the plan).
 */
export function planTask(deps: TaskPlanDeps, request: TaskRequest, agent: AgentConfig, opened: Pick<OpenedSource, 'source' | 'github'>, focus: FocusPaths = NO_FOCUS): TaskPlan {
  const pr = request.pullRequest;
  const view: TaskView = {
    request: request.request,
    origin: request.origin,
    repository: opened.source.repository,
    ...namedRef(request),
    ...(pr ? { headCommit: pr.headSha, headFromFork: pr.fromFork, pullRequest: pr } : {}),
    cwd: request.cwd,
    focusPaths: focus.paths,
    trusted: request.trusted,
    skills: request.skills,
    agent: agent.name,
    ...(request.client === undefined ? {} : { client: clientOf(request.client) }),
    ...(request.facts && request.facts.length > 0 ? { facts: request.facts } : {}),
  };
  const settings: HostSettings = { ...(deps.deployment ? { deployment: deps.deployment } : {}), ...(request.providers ? { task: request.providers } : {}) };
  const knowledge = deps.knowledgeFor?.(request);
  const available: Capability[] = ['repo:read', ...(opened.github ? (['github:api'] as const) : []), ...(knowledge ? (['knowledge:read'] as const) : [])];
  const plan = planReads({ registry: deps.registry, agent, task: view, turn: 0, available, settings, focusFiles: focus.files });
  return { view, available, settings, ...(knowledge ? { knowledge } : {}), plan };
}

/**
 * The plan a stored task's turn 0 read with (its agent, settings and turn 0's focus): a later
 * reader of the same commit for the same focus passes it to the snapshot and is served from what
 * turn 0 read ahead. Undefined when the task's agent no longer resolves.
 */
export function turnZeroPlan(deps: TaskPlanDeps, task: Pick<TaskRow, 'agent_config' | 'request'>, agents: AgentCatalog, opened: Pick<OpenedSource, 'source' | 'github'>, focus: FocusPaths | undefined): ReadPlan | undefined {
  const agent = storedAgent(task, agents);
  return agent.ok ? planTask(deps, task.request, agent.agent, opened, focus ?? NO_FOCUS).plan : undefined;
}
