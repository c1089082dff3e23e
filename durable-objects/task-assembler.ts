/**
 * @module durable-objects/task-assembler
 * Turns a stored task and a turn number into a turn record: resolve and pin the commit once,
 * open the repository at it, then run the shared context pipeline. Turn 0 renders the full first
 * request; later turns render only the context sections of `turns: all` providers.
 *
 * One assembly runs under one deadline. Every network step (the ref and its read-ahead, the tree
 * or pack, the settings file, every provider read) gets its signal, and the assembly rejects at
 * the deadline even if a step ignores it, naming the step in progress and so the repository and
 * its host. A repository that cannot be read is a failed assembly, never a turn without its rules.
 */
import type { AgentConfig } from '../src/context/agents.ts';
import { agentHash, type AgentCatalog } from '../src/context/agent-catalog.ts';
import { clientLabel } from '../src/context/client.ts';
import { digestContext } from '../src/context/digest.ts';
import { BUILTIN_AGENTS } from '../src/context/agents.ts';
import type { ProviderOutcome } from '../src/context/outcome.ts';
import { selects } from '../src/context/provider-selection.ts';
import { MAX_HISTORY_TASKS } from '../src/providers/history/settings.ts';
import type { Registry } from '../src/context/registry.ts';
import type { SettingsReport } from '../src/context/settings/report.ts';
import type { Capability, EarlierEntry, TaskView } from '../src/context/provider.ts';
import type { TaskHistoryReader } from '../src/context/task-history.ts';
import type { ReadPlan } from '../src/sources/read-plan.ts';
import { renderContext } from '../src/context/render.ts';
import { assembleFirstTurn, gatherContext, readsRepository, summariseEntry } from '../src/context/turn.ts';
import { withDeadline } from '../src/lib/deadline.ts';
import type { RepositorySource, Snapshot } from '../src/sources/snapshot.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import { contextItemId } from '../src/context/transcript.ts';
import { PermanentAssemblyError } from '../src/tasks/errors.ts';
import type { GitHubApi } from '../src/sources/pull-requests.ts';
import { firstTurnFocus, NO_FOCUS, type PostedFocus, type TurnFocus } from '../src/tasks/turn-focus.ts';
import { storedAgent } from './stored-agent.ts';
import { laterTurnFocus } from './task-focus.ts';
import { DEFAULT_REF, planTask, type TaskPlan, type TaskPlanDeps } from './task-plan.ts';
import type { TaskRow, TurnRecord } from './task-store.ts';

export interface AssemblerDeps extends TaskPlanDeps {
  /** The task's source, the cache scoped to the credential that reads it, and its pull request (if any). */
  openSource(request: TaskRequest): Promise<OpenedSource>;
  /** Entries of the turns before `turn`, from the ledger: what later-turn providers compare against. */
  history(turn: number): EarlierEntry[];
  /** A stored turn's record: a later turn's focus starts from turn 0's and the previous turn's. */
  record(turn: number): TurnRecord | undefined;
  /** Focus posted on the task after it was created. */
  posted: PostedFocus;
  /** This deployment's agents, for tasks stored before their configuration was kept with them. */
  agents?: AgentCatalog;
  /**
   * The tenant's earlier tasks on the task's repository (`tasks:read`), when this host keeps an
   * index of them; `ahead`: ask the index for that many now (tasks/earlier-tasks).
   */
  earlierTasks?(task: TaskRow, ahead?: number): TaskHistoryReader | undefined;
  /** Stores the commit the first time; returns the pinned one. */
  pinCommit(commit: string): string;
  now(): number;
  /** Milliseconds one assembly may take, all its steps together (ASSEMBLY_TIMEOUT_MS). */
  deadlineMs: number;
  /**
   * Told the snapshot turn 0 was assembled from, with what it read ahead and read, once the turn
   * is made: the pull request's report that follows reads it again (task-rules).
   */
  assembledFrom?(snapshot: Snapshot): void;
  /**
   * Handed the wait for the cache writes of an assembly's reads (sources/write-behind) as it
   * starts, so its turn is stored and reported without waiting for them; the host waits before its
   * invocation ends (first-turn-attempts, turn-begin). Without it the turn waits for them itself.
   */
  writesBehind?(settled: (options: { deadlineMs: number }) => Promise<void>): void;
  /**
   * First-time work a GitHub task's turn 0 needs whatever its reads answer (building the checks of
   * the read-ahead and of the providers' answers, running the turn's code once: once per isolate),
   * done while it waits on its first GitHub requests rather than after they answer (issue 56).
   */
  prepare?(task: TaskRow, agent: AgentConfig): void;
}

export function createTaskAssembler(deps: AssemblerDeps): (task: TaskRow, turn: number) => Promise<TurnRecord> {
  return (task, turn) => {
    let step = 'opening the source';
    const overdue = () => `turn ${turn} was not assembled within ${deps.deadlineMs} ms (ASSEMBLY_TIMEOUT_MS): still ${step}`;
    return withDeadline(deps.deadlineMs, overdue, (signal) => assemble(task, turn, signal, (next) => (step = next)));
  };

  async function assemble(task: TaskRow, turn: number, signal: AbortSignal, progress: (step: string) => void): Promise<TurnRecord> {
    const { request } = task;
    const agent = storedAgent(task, deps.agents ?? BUILTIN_AGENTS);
    if (!agent.ok) throw new PermanentAssemblyError(agent.error);
    // Turn 0's earlier tasks are asked for now, beside the source's first reads, not after them;
    // the most the history provider may show, since the repository's settings are not read yet.
    const ahead = turn === 0 && selects(agent.agent.providers, 'history') ? MAX_HISTORY_TASKS : undefined;
    const tasks = deps.earlierTasks?.(task, ahead);
    const hash = await agentHash(agent.agent);
    const { source, cache, usage, github, settled } = await deps.openSource(request);
    // Handed over at once, so the host waits for them also when the assembly fails.
    if (settled && deps.writesBehind) deps.writesBehind(settled);
    const waitForWrites = async (): Promise<void> => {
      if (settled && !deps.writesBehind) await settled();
    };
    const opened = { source, ...(github ? { github } : {}) };
    const focusing = turnFocus(task, turn, { agent: agent.agent, setup: planTask(deps, request, agent.agent, opened), ...(github ? { github } : {}) }, signal, progress);
    // Once its first reads are on their way (a timer runs after they are sent), not in their path.
    if (turn === 0 && github && deps.prepare) setTimeout(() => deps.prepare?.(task, agent.agent), 0);
    const focus = await focusing;
    assertInstallationUsable(focus);
    // Every turn plans with turn 0's focus, so it shares turn 0's read-ahead.
    const planFocus = turn === 0 ? focus : (deps.record(0)?.focus ?? NO_FOCUS);
    const { view: planned, available: capabilities, settings, knowledge, plan } = planTask(deps, request, agent.agent, opened, planFocus);
    const unpinned: TaskView = { ...planned, focusPaths: focus.paths, skills: focus.skills };
    const available: Capability[] = [...capabilities, ...(tasks ? (['tasks:read'] as const) : [])];
    // The plan lets the source fetch what turn 0 reads with the ref's resolution.
    let commit = task.commit_sha;
    if (!commit && request.baseCommit) commit = deps.pinCommit(request.baseCommit);
    if (!commit) {
      progress(`resolving ${refToResolve(request)} of ${source.repository}`);
      commit = deps.pinCommit(await resolveCommit(source, request, plan, signal));
    }

    const view: TaskView = { ...unpinned, commit };
    const snapshot = source.snapshot(commit, { plan, signal });
    const input = {
      registry: deps.registry,
      agent: agent.agent,
      available,
      ...(knowledge ? { knowledge } : {}),
      ...(tasks ? { tasks } : {}),
      snapshot,
      source,
      ...(github ? { github } : {}),
      history: deps.history(turn),
      task: view,
      turn,
      moved: focus.moved,
      focusFiles: focus.files,
      ...(focus.pullRequestFiles ? { pullRequestFiles: focus.pullRequestFiles } : {}),
      settings,
      // Another commit (freshness's new head) is read with turn 0's plan too, so its read-ahead is shared.
      plan,
      now: deps.now,
      signal,
      ...(cache ? { cache } : {}),
    };
    const reads = readsRepository(input);
    if (reads) {
      // What every repository provider reads first (for a git URL: the pack). Opened here, it gets
      // the assembly's time rather than one provider's, and a repository that cannot be read fails
      // the assembly once, with its own reason.
      progress(`reading ${source.repository} at ${commit}`);
      await openRepository(snapshot, plan);
    }
    progress(`running providers on ${source.repository} at ${commit}`);
    const createdAt = deps.now();

    if (turn === 0) {
      const first = await assembleFirstTurn(input);
      // The cache writes of its reads ran beside it and may still run: a cache, so nothing the turn
      // or its report needs (a write that never lands is a later miss, sources/cached-json).
      await waitForWrites();
      if (first.settings) assertSettingsRead(first.settings);
      if (reads) assertSomeRead(first.providers, deps.registry, snapshot);
      const [item] = first.items;
      if (item?.type !== 'message') throw new Error('the first request has no task item');
      deps.assembledFrom?.(snapshot);
      return {
        turn,
        digest: first.digest,
        chars: first.chars,
        tokens: first.providers.reduce((sum, p) => sum + p.tokens, 0),
        item,
        agent: first.agent,
        agentHash: hash,
        ...(first.client === undefined ? {} : { client: first.client }),
        commit,
        repository: source.repository,
        system: first.system.map((content) => ({ role: 'system' as const, content })),
        tools: first.tools,
        providers: first.providers,
        entries: first.entries,
        ...(first.settings ? { settings: first.settings } : {}),
        createdAt,
        ...(usage ? { github: usage() } : {}),
        focus: { paths: [...focus.paths], files: [...focus.files] },
        moved: movedRecord(focus),
      };
    }

    const gathered = await gatherContext(input);
    await waitForWrites();
    assertSettingsRead(gathered.settings);
    if (reads) assertSomeRead(gathered.outcomes, deps.registry, snapshot);
    const content = renderContext(gathered.entries, gathered.notices);
    return {
      turn,
      digest: await digestContext(content, gathered.settings, hash),
      chars: content.length,
      tokens: gathered.outcomes.reduce((sum, p) => sum + p.tokens, 0),
      item: content === '' ? null : { id: contextItemId(turn), type: 'context', role: 'user', content },
      agent: agent.agent.name,
      agentHash: hash,
      ...(input.task.client && input.task.client.name !== 'none' ? { client: clientLabel(input.task.client) } : {}),
      commit,
      repository: source.repository,
      system: [],
      tools: agent.agent.tools,
      providers: gathered.outcomes,
      entries: gathered.entries.map(summariseEntry),
      settings: gathered.settings,
      createdAt,
      ...(usage ? { github: usage() } : {}),
      moved: movedRecord(focus),
    };
  }

  /** `setup` is the task's plan before focus: who runs, with which settings and capabilities. */
  function turnFocus(
    task: TaskRow,
    turn: number,
    { agent, setup, github }: { agent: AgentConfig; setup: TaskPlan; github?: GitHubApi },
    signal: AbortSignal,
    progress: (step: string) => void,
  ): Promise<TurnFocus> {
    const { request } = task;
    if (turn === 0) {
      const plan = { registry: deps.registry, agent, task: setup.view, turn: 0, available: setup.available, settings: setup.settings };
      return firstTurnFocus({ request, plan, ...(github ? { github } : {}), posted: deps.posted, signal, progress });
    }
    const first = deps.record(0);
    const previous = deps.record(turn - 1);
    if (!first || !previous) throw new Error(`turn ${turn} needs turns 0 and ${turn - 1} stored first`);
    return Promise.resolve(laterTurnFocus(request, first, previous, deps.posted));
  }
}

function movedRecord(focus: TurnFocus): NonNullable<TurnRecord['moved']> {
  return { through: focus.through, paths: [...focus.moved.paths], skills: [...focus.moved.skills], rules: [...focus.moved.rules] };
}

/** A commit the caller resolved is still looked up, so a commit the repository lacks fails here. */
function refToResolve(request: TaskRequest): string {
  return request.commit ?? request.ref ?? DEFAULT_REF;
}

async function resolveCommit(source: RepositorySource, request: TaskRequest, plan: ReadPlan, signal: AbortSignal): Promise<string> {
  const ref = refToResolve(request);
  const resolved = await source.resolve(ref, { plan, signal });
  if (resolved.status === 'ok') return resolved.commit;
  if (resolved.status === 'missing') throw new PermanentAssemblyError(`ref ${ref} does not name a commit in ${source.repository}`);
  const reason = `could not resolve ${ref} in ${source.repository}: ${resolved.reason}`;
  throw resolved.permanent ? new PermanentAssemblyError(reason) : new Error(reason);
}

/**
 * The pull request's files are the first thing turn 0 asks GitHub for. When that fails because
 * the App cannot act as the installation, every later read would exchange the same token and
 * meet the same refusal: the attempt ends here, with that reason, and is not retried.
 */
function assertInstallationUsable(focus: TurnFocus): void {
  const listed = focus.pullRequestFiles;
  if (listed?.status === 'failed' && listed.credentials) throw new PermanentAssemblyError(`could not list ${listed.reason}`);
}

/**
 * Lists a directory the providers will list anyway (the plan's first, else the root), which loads
 * what they all share: the pack, the tree, or the read-ahead. Whatever it answers besides
 * `failed` (even `missing`) means the repository can be read at this commit.
 */
async function openRepository(snapshot: Snapshot, plan: ReadPlan): Promise<void> {
  const listed = await snapshot.list(plan.dirs[0] ?? plan.walks[0]?.prefix ?? '');
  if (listed.status !== 'failed') return;
  const reason = `could not read ${snapshot.repository} at ${snapshot.commit}: ${listed.reason}`;
  throw listed.permanent ? new PermanentAssemblyError(reason) : new Error(reason);
}

/**
 * A repository's settings are not optional material: when `.groundwork.yml` could not be read
 * (as opposed to absent or invalid), the attempt fails and is retried like an unreadable
 * repository, rather than storing a turn assembled without the repository's own settings.
 */
function assertSettingsRead(settings: SettingsReport): void {
  const repository = settings.layers.find((layer) => layer.layer === 'repository');
  if (repository?.status === 'failed') throw new Error(`the repository's settings could not be read: ${repository.reason ?? 'no reason given'}`);
}

/**
 * A turn whose every repository provider failed or timed out has no rules at all: an honest
 * answer is a failed assembly (retried while attempts remain), not a ready task without them.
 */
function assertSomeRead(outcomes: readonly ProviderOutcome[], registry: Registry, snapshot: Snapshot): void {
  const ran = (outcome: ProviderOutcome) => outcome.outcome !== 'turn-gated' && outcome.outcome !== 'capability-gated' && outcome.outcome !== 'disabled';
  const readers = outcomes.filter((outcome) => ran(outcome) && registry.get(outcome.name)?.requires.includes('repo:read'));
  const unread = readers.filter((outcome) => outcome.outcome === 'failed' || outcome.outcome === 'timed-out');
  if (readers.length === 0 || unread.length < readers.length) return;
  const reasons = unread.map((outcome) => `${outcome.name} ${outcome.outcome}: ${outcome.reason ?? 'no reason'}`).join('; ');
  throw new Error(`no repository provider could read ${snapshot.repository} at ${snapshot.commit}: ${reasons}`);
}
