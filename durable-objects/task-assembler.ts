/**
 * @module durable-objects/task-assembler
 * Turns a stored task and a turn number into a turn record: resolve and pin the commit once,
 * then run the shared context pipeline. Turn 0 renders the full first request; later turns
 * render only the context sections of `turns: all` providers.
 */
import { resolveAgent } from '../src/context/agents.ts';
import { digestContext } from '../src/context/digest.ts';
import type { EarlierEntry, TaskView } from '../src/context/provider.ts';
import type { ReadPlan } from '../src/sources/read-plan.ts';
import { renderContext } from '../src/context/render.ts';
import { assembleFirstTurn, gatherContext, summariseEntry } from '../src/context/turn.ts';
import type { RepositorySource } from '../src/sources/snapshot.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import { contextItemId } from '../src/context/transcript.ts';
import { PermanentAssemblyError } from '../src/tasks/errors.ts';
import { DEFAULT_REF, planTask, type TaskPlanDeps } from './task-plan.ts';
import type { TaskRow, TurnRecord } from './task-store.ts';

export interface AssemblerDeps extends TaskPlanDeps {
  /** The task's source, the cache scoped to the credential that reads it, and its pull request (if any). */
  openSource(request: TaskRequest): Promise<OpenedSource>;
  /** Entries of the turns before `turn`, from the ledger: what later-turn providers compare against. */
  history(turn: number): EarlierEntry[];
  /** Stores the commit the first time; returns the pinned one. */
  pinCommit(commit: string): string;
  now(): number;
  signal?: AbortSignal;
}

export function createTaskAssembler(deps: AssemblerDeps): (task: TaskRow, turn: number) => Promise<TurnRecord> {
  return async (task, turn) => {
    const { request } = task;
    const agent = resolveAgent(request.agent);
    if (!agent.ok) throw new PermanentAssemblyError(agent.error);
    const { source, cache, usage, github } = await deps.openSource(request);
    const { view: unpinned, available, settings, knowledge, plan } = planTask(deps, request, agent.agent, { source, ...(github ? { github } : {}) });
    // The plan lets the source fetch what turn 0 reads with the ref's resolution.
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
      history: deps.history(turn),
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
