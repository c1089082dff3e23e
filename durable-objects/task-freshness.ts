/**
 * @module durable-objects/task-freshness
 * The read-back a host asks for before a consequential action: every source that reached the
 * model on any turn of the task, compared between the task's pinned commit and where the task's
 * ref points now, and the rule set for the task's focus (turn 0's and every path posted since)
 * at both. It reads the repository and the ledger and writes nothing. Anything that
 * cannot be read makes sources `unverifiable` with the reason; it is never an error.
 */
import { checkFreshness, pinnedFrom, uncheckedReport } from '../src/freshness/check.ts';
import type { FreshnessReport } from '../src/freshness/report.ts';
import { trackedSources } from '../src/freshness/tracked.ts';
import type { AgentConfig } from '../src/context/agents.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import { focusPathsOf } from '../src/context/focus.ts';
import { createRuleSetReader } from '../src/context/rule-set-reader.ts';
import { NO_FOCUS, type PostedFocus } from '../src/tasks/turn-focus.ts';
import { namedRef, planTask, type TaskPlanDeps } from './task-plan.ts';
import type { TaskRow, TaskStore } from './task-store.ts';
import type { FreshnessResult } from '../src/tasks/task-results.ts';
import type { AgentCatalog } from '../src/context/agent-catalog.ts';
import { storedAgent } from './stored-agent.ts';

/** Hosts call this on their way to pushing or posting: it answers within this, whatever the remote does. */
export const READ_BACK_DEADLINE_MS = 10_000;

/** The plan deps let the pinned commit be compared from what turn 0 read ahead (see task-plan). */
export interface ReadBackDeps extends TaskPlanDeps {
  store: TaskStore;
  /** Focus posted on the task: its paths are part of the focus the rule set is compared for. */
  posted: PostedFocus;
  openSource(request: TaskRequest): Promise<OpenedSource>;
  now(): number;
}

/** The read-back of a stored task, with the agent configuration it runs with; a conflict until it pinned a commit. */
export async function readBackTask(task: TaskRow, agents: AgentCatalog, deps: ReadBackDeps): Promise<Exclude<FreshnessResult, { status: 'not-found' }>> {
  if (task.commit_sha === null) return { status: 'conflict', message: `the task has not pinned a commit yet (it is ${task.status})` };
  const agent = storedAgent(task, agents);
  return { status: 'ok', report: await readBackFreshness(task.request, task.commit_sha, agent.ok ? agent.agent : undefined, deps) };
}

/** `agent`: the task's configuration, whose providers' read plan the pinned side is read with (none for a task without one). */
export async function readBackFreshness(request: TaskRequest, commit: string, agent: AgentConfig | undefined, deps: ReadBackDeps): Promise<FreshnessReport> {
  const ref = pinnedFrom({ ...namedRef(request), ...(request.pullRequest ? { pullRequest: request.pullRequest } : {}) });
  const head = request.pullRequest?.headSha;
  const input = {
    commit,
    ...(ref === undefined ? {} : { ref }),
    sources: trackedSources(deps.store.history(Number.MAX_SAFE_INTEGER)),
    now: deps.now,
  };
  let opened: OpenedSource;
  try {
    opened = await deps.openSource(request);
  } catch (error) {
    return uncheckedReport(input, `could not open the repository: ${error instanceof Error ? error.message : String(error)}`);
  }
  const first = deps.store.turn(0);
  const focus = first?.focus ?? NO_FOCUS;
  const setup = agent ? planTask(deps, request, agent, opened, focus) : undefined;
  const plan = setup?.plan;
  // The rule set is compared for the task's focus as it is now: turn 0's, and every path posted since.
  const posted = deps.posted.between(first?.moved?.through ?? 0, deps.posted.through());
  const ruleSets =
    agent && setup
      ? createRuleSetReader({
          registry: deps.registry,
          agent,
          task: { ...setup.view, commit, focusPaths: focusPathsOf(request.cwd, [focus.paths, posted.paths]) },
          available: setup.available,
          settings: setup.settings,
          focusFiles: focus.files,
          plan: setup.plan,
        })
      : undefined;
  return checkFreshness({
    ...input,
    ...(ruleSets ? { ruleSets } : {}),
    source: opened.source,
    // Its shared loads end with the read-back, as the check's own do.
    pinned: opened.source.snapshot(commit, { ...(plan ? { plan } : {}), signal: AbortSignal.timeout(READ_BACK_DEADLINE_MS) }),
    ...(opened.github && request.pullRequest ? { pullRequest: { github: opened.github, number: request.pullRequest.number, ...(head === undefined ? {} : { head }) } } : {}),
    deadlineMs: READ_BACK_DEADLINE_MS,
  });
}
