/**
 * @module durable-objects/task-checks
 * A check before an action, as the Task object makes it: the task as the check sees it (its
 * request, pinned commit and the knowledge its memory provider rendered on any turn), the reads
 * it may make (the task's repository source, GitHub's checks and pull request as the task's
 * credential, the task's knowledge scope), then the answer, recorded. Reads the repository and
 * the ledger; writes only the check's record.
 */
import { CheckRequestSchema, unfitFor, type CheckRequest, type CheckRequestInput } from '../src/checks/check-request.ts';
import type { CheckResultRpc } from '../src/tasks/task-results.ts';
import type { CheckReads, CheckTask, KnowledgeVersions, RenderedKnowledge } from '../src/checks/check-task.ts';
import type { CheckRecord } from '../src/checks/result.ts';
import { CHECK_DEADLINE_MS, runCheck } from '../src/checks/run-check.ts';
import type { KnowledgeService } from '../src/knowledge/knowledge-service.ts';
import { knowledgeScope, knowledgeTenant } from '../src/knowledge/scope.ts';
import type { RepositoryPolicy } from '../src/tasks/repository-identity.ts';
import { parseKnowledgeTitle } from '../src/providers/memory/entry.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import { displayRepo, type TaskRequest } from '../src/tasks/task-request.ts';
import type { CheckLogStore } from './check-log.ts';
import type { TaskRow, TurnRecord } from './task-store.ts';

export interface TaskCheckDeps {
  turns(): TurnRecord[];
  log: CheckLogStore;
  openSource(request: TaskRequest): Promise<OpenedSource>;
  /** The versions of a knowledge object in the task's scope, when this host keeps knowledge. */
  knowledgeFor?(request: TaskRequest): ((id: string, signal: AbortSignal) => Promise<KnowledgeVersions>) | undefined;
  now(): number;
}

/**
 * A check as a caller asks for it: refused with the reason while the task has no pinned commit or
 * the action does not fit the task (a push to a task without a branch …), else made and recorded.
 */
export async function checkOnRequest(task: TaskRow, input: CheckRequestInput, deps: TaskCheckDeps): Promise<Exclude<CheckResultRpc, { status: 'not-found' }>> {
  const request = CheckRequestSchema.parse(input);
  const commit = task.commit_sha;
  if (commit === null) return { status: 'conflict', message: `the task has not pinned a commit yet (it is ${task.status}); there is nothing to check against` };
  const unfit = unfitFor(task.request, request);
  if (unfit) return { status: 'conflict', message: unfit };
  return { status: 'ok', check: await checkTask({ ...task, commit_sha: commit }, request, deps) };
}

export async function checkTask(task: TaskRow & { commit_sha: string }, request: CheckRequest, deps: TaskCheckDeps): Promise<CheckRecord> {
  const subject = checkTaskOf(task.request, task.commit_sha, deps.turns());
  let reads: CheckReads | { unavailable: string; now(): number };
  try {
    const opened = await deps.openSource(task.request);
    const knowledge = deps.knowledgeFor?.(task.request);
    reads = { source: opened.source, ...(opened.checks ? { github: opened.checks } : {}), ...(knowledge ? { knowledge } : {}), now: deps.now };
  } catch (error) {
    reads = { unavailable: `could not open the repository: ${error instanceof Error ? error.message : String(error)}`, now: deps.now };
  }
  const result = await runCheck({ task: subject, request, reads, deadlineMs: CHECK_DEADLINE_MS });
  return deps.log.record(result, deps.now());
}

/**
 * The versions of a knowledge object, read in the task owner's scope: a granted tenant asking
 * checks the knowledge the owner's task was given. None when the repository names no scope.
 */
export function knowledgeLineage(service: Pick<KnowledgeService, 'versions'>, policy: RepositoryPolicy): NonNullable<TaskCheckDeps['knowledgeFor']> {
  return (request) => {
    if (!knowledgeScope(request.tenant, request.repo, policy).ok) return undefined;
    return async (id) => {
      const read = await service.versions(knowledgeTenant(request.tenant), id);
      return read.status === 'ok' ? { status: 'ok', versions: read.versions } : read;
    };
  };
}

/** What the check knows of a stored task before reading anything. */
export function checkTaskOf(request: TaskRequest, commit: string, turns: readonly TurnRecord[]): CheckTask {
  const pr = request.pullRequest;
  // A pull request's task is pinned at its base; any other was resolved from the ref it named.
  const ref = request.baseCommit === undefined ? request.ref : undefined;
  return {
    repository: displayRepo(request.repo),
    commit,
    ...(ref === undefined ? {} : { ref }),
    ...(pr
      ? { pullRequest: { number: pr.number, headSha: pr.headSha, fromFork: pr.fromFork, ...(pr.headRef ? { headRef: pr.headRef } : {}), ...(pr.baseRef ? { baseRef: pr.baseRef } : {}) } }
      : {}),
    knowledge: renderedKnowledge(turns),
  };
}

/** Every knowledge object a memory entry named, once, in render order. */
function renderedKnowledge(turns: readonly TurnRecord[]): RenderedKnowledge[] {
  const found = new Map<string, RenderedKnowledge>();
  for (const turn of turns) {
    for (const entry of turn.entries) {
      if (entry.category !== 'memory') continue;
      const named = parseKnowledgeTitle(entry.title);
      if (!named || found.has(named.id)) continue;
      const { uri, path, revision, blob } = entry.source;
      found.set(named.id, {
        ...named,
        ...(entry.reviewBy ? { reviewBy: entry.reviewBy } : {}),
        source: { uri, ...(path ? { path } : {}), ...(revision ? { revision } : {}), ...(blob ? { blob } : {}) },
      });
    }
  }
  return [...found.values()];
}
