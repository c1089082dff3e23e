/**
 * @module durable-objects/task-assembler
 * Turns a stored task and a turn number into a turn record: resolve and pin the commit once,
 * then run the shared context pipeline. Turn 0 renders the full first request; later turns
 * render only the context sections of `turns: all` providers.
 */
import { resolveAgent } from '../src/context/agents.ts';
import { digestContext } from '../src/context/digest.ts';
import type { KnowledgeReader } from '../src/context/knowledge.ts';
import type { Capability, TaskView } from '../src/context/provider.ts';
import { planReads } from '../src/context/read-ahead.ts';
import type { ReadPlan } from '../src/sources/read-plan.ts';
import type { Registry } from '../src/context/registry.ts';
import type { SettingsLayer } from '../src/context/settings/layer.ts';
import { renderContext } from '../src/context/render.ts';
import { assembleFirstTurn, gatherContext, summariseEntry } from '../src/context/turn.ts';
import type { GitHubUsage } from '../src/sources/github/usage.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import type { GitHubApi } from '../src/sources/pull-requests.ts';
import type { RepositorySource } from '../src/sources/snapshot.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import { contextItemId } from '../src/context/transcript.ts';
import { PermanentAssemblyError } from '../src/tasks/errors.ts';
import type { TaskRow, TurnRecord } from './task-store.ts';

export interface AssemblerDeps {
  registry: Registry;
  /** The deployment's provider settings (`PROVIDER_CONFIG`); the task's own and the repository's are layered over them. */
  deployment?: SettingsLayer;
  /** The task's source, the cache scoped to the credential that reads it, what its GitHub reads cost, and GitHub reads for a GitHub repository. */
  openSource(request: TaskRequest): Promise<{ source: RepositorySource; cache?: KeyValueStore; usage?: () => GitHubUsage; github?: GitHubApi }>;
  /** Stores the commit the first time; returns the pinned one. */
  pinCommit(commit: string): string;
  /** The task's knowledge scope (its tenant and repository), when this host keeps knowledge. */
  knowledgeFor?(request: TaskRequest): KnowledgeReader | undefined;
  now(): number;
  signal?: AbortSignal;
}

/** What a task that names no ref is resolved from: the repository's default branch. */
const DEFAULT_REF = 'HEAD';

export function createTaskAssembler(deps: AssemblerDeps): (task: TaskRow, turn: number) => Promise<TurnRecord> {
  return async (task, turn) => {
    const { request } = task;
    const agent = resolveAgent(request.agent);
    if (!agent.ok) throw new PermanentAssemblyError(agent.error);
    const { source, cache, usage, github } = await deps.openSource(request);
    const pr = request.pullRequest;
    const unpinned: TaskView = {
      request: request.request,
      origin: request.origin,
      repository: source.repository,
      // A pull request's task comes pinned at its base; any other is resolved from the ref it named.
      ...(request.baseCommit === undefined ? { ref: request.ref ?? DEFAULT_REF } : {}),
      ...(pr ? { headCommit: pr.headSha, headFromFork: pr.fromFork, pullRequest: pr } : {}),
      cwd: request.cwd,
      trusted: request.trusted,
      skills: request.skills,
      agent: agent.agent.name,
    };
    const knowledge = deps.knowledgeFor?.(request);
    const available: Capability[] = ['repo:read', ...(github ? (['github:api'] as const) : []), ...(knowledge ? (['knowledge:read'] as const) : [])];
    const settings = { ...(deps.deployment ? { deployment: deps.deployment } : {}), ...(request.providers ? { task: request.providers } : {}) };
    // What the providers will read, so the source can fetch it with the ref's resolution.
    const plan = planReads({ registry: deps.registry, agent: agent.agent, task: unpinned, turn, available, settings });
    const commit = task.commit_sha ?? deps.pinCommit(request.baseCommit ?? (await resolveCommit(source, request, plan)));

    const view: TaskView = { ...unpinned, commit };
    const input = {
      registry: deps.registry,
      agent: agent.agent,
      available,
      ...(knowledge ? { knowledge } : {}),
      snapshot: source.snapshot(commit, { plan }),
      source,
      ...(github ? { github } : {}),
      task: view,
      turn,
      settings,
      now: deps.now,
      ...(cache ? { cache } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    };
    const createdAt = deps.now();

    if (turn === 0) {
      const first = await assembleFirstTurn(input);
      const [item] = first.items;
      if (item?.type !== 'message') throw new Error('the first request has no task item');
      return {
        turn,
        digest: first.digest,
        chars: first.chars,
        tokens: first.providers.reduce((sum, p) => sum + p.tokens, 0),
        item,
        agent: first.agent,
        commit,
        repository: source.repository,
        system: first.system.map((content) => ({ role: 'system' as const, content })),
        tools: first.tools,
        providers: first.providers,
        entries: first.entries,
        ...(first.settings ? { settings: first.settings } : {}),
        createdAt,
        ...(usage ? { github: usage() } : {}),
      };
    }

    const gathered = await gatherContext(input);
    const content = renderContext(gathered.entries, gathered.notices);
    return {
      turn,
      digest: await digestContext(content, gathered.settings),
      chars: content.length,
      tokens: gathered.outcomes.reduce((sum, p) => sum + p.tokens, 0),
      item: content === '' ? null : { id: contextItemId(turn), type: 'context', role: 'user', content },
      agent: agent.agent.name,
      commit,
      repository: source.repository,
      system: [],
      tools: agent.agent.tools,
      providers: gathered.outcomes,
      entries: gathered.entries.map(summariseEntry),
      settings: gathered.settings,
      createdAt,
      ...(usage ? { github: usage() } : {}),
    };
  };
}

async function resolveCommit(source: RepositorySource, request: TaskRequest, plan: ReadPlan): Promise<string> {
  // A commit the caller resolved is still looked up, so a commit the repository lacks fails here.
  const ref = request.commit ?? request.ref ?? DEFAULT_REF;
  const resolved = await source.resolve(ref, { plan });
  if (resolved.status === 'ok') return resolved.commit;
  if (resolved.status === 'missing') throw new PermanentAssemblyError(`ref ${ref} does not name a commit in ${source.repository}`);
  throw new Error(`could not resolve ${ref} in ${source.repository}: ${resolved.reason}`);
}
