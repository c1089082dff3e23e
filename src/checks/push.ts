/**
 * @module checks/push
 * Before pushing: where the branch points on the remote now against the commit the agent built
 * on (the host's `commit`, else the pull request's head or the pinned commit), and for a pull
 * request whether it is still open and whether its head and base moved. The head of a pull
 * request is read from the pull request (it may live in a fork), any other branch from the
 * repository (a `file://` repository's branch in that repository). `stop` when someone else
 * pushed (the branch moved), the pull request was closed or merged, or its base
 * moved and the host asked to be told (`stopIfBaseMoved`); a base that moved is reported either
 * way.
 */
import { targetRef } from '../freshness/check.ts';
import type { PullRequestRead } from '../sources/pull-requests.ts';
import type { ResolveResult } from '../sources/snapshot.ts';
import type { ActionCheck } from './action.ts';
import { decide, short } from './verdict.ts';
import type { PushDetails } from './details.ts';

export const pushCheck: ActionCheck<PushDetails> = {
  plan(task, request) {
    const pr = task.pullRequest;
    const branch = request.branch ?? pr?.headRef ?? (pr ? null : targetRef(task.ref));
    const viaPull = pr !== undefined && (branch === null || branch === pr.headRef);
    const builtOn = request.commit ?? (viaPull ? pr.headSha : task.commit);
    const pullRequest = pr
      ? { number: pr.number, state: null, currentHead: null, baseRef: pr.baseRef ?? null, currentBaseRef: null, base: task.commit, currentBase: null, baseMoved: null }
      : undefined;
    return {
      subject: { repository: task.repository, ref: branch, commit: builtOn, ...(pr ? { pullRequest: pr.number } : {}) },
      details: { branch, builtOn, remote: null, exists: null, moved: null, ...(pullRequest ? { pullRequest } : {}) },
    };
  },

  async read(plan, { task, request, reads, signal }) {
    const pr = task.pullRequest;
    const { branch, builtOn } = plan.details;
    const viaPull = pr !== undefined && (branch === null || branch === pr.headRef);
    const found = { stop: [] as string[], unknown: [] as string[], go: [] as string[] };
    const [pull, tip, pinnedBase] = await Promise.all([
      pr && reads.github ? reads.github.pullRequest(pr.number, { signal }) : undefined,
      !viaPull && branch !== null ? reads.source.resolve(branch, { signal }) : undefined,
      pr?.baseRef ? reads.source.resolve(pr.baseRef, { signal }) : undefined,
    ]);
    const details: PushDetails = { ...plan.details };

    if (pr) {
      const state = pullState(pull, pr.number, found);
      const now = pull?.status === 'ok' ? pull.pullRequest : undefined;
      const retargeted = now !== undefined && pr.baseRef !== undefined && now.baseRef !== pr.baseRef;
      // Retargeted: the base that matters for the merge is the new one.
      const base = retargeted ? await reads.source.resolve(now.baseRef, { signal }) : pinnedBase;
      const baseRef = now?.baseRef ?? pr.baseRef ?? null;
      const currentBase = base?.status === 'ok' ? base.commit : null;
      const baseMoved = retargeted ? true : currentBase === null ? null : currentBase !== task.commit;
      details.pullRequest = { number: pr.number, state, currentHead: now?.headSha ?? null, baseRef: pr.baseRef ?? null, currentBaseRef: now?.baseRef ?? null, base: task.commit, currentBase, baseMoved };
      if (baseRef !== null) baseFinding({ baseRef, pinnedRef: pr.baseRef, base, pinned: task.commit, retargeted, number: pr.number, stopIfBaseMoved: request.stopIfBaseMoved === true }, found);
      if (viaPull && now) {
        const where = `the head of pull request #${pr.number}${branch ? ` (${branch})` : ''}`;
        Object.assign(details, { remote: now.headSha, exists: true, moved: now.headSha !== builtOn });
        if (now.headSha === builtOn) found.go.push(`${where} is still at ${short(builtOn)}, the commit you built on`);
        else found.stop.push(`someone else pushed: ${where} is at ${short(now.headSha)}, not ${short(builtOn)} you built on`);
      }
    }
    if (tip && branch !== null) {
      const own = branch === targetRef(task.ref) || branch === pr?.headRef;
      const where = placeOf(task.repository);
      if (tip.status === 'ok') {
        Object.assign(details, { remote: tip.commit, exists: true, moved: tip.commit !== builtOn });
        if (tip.commit === builtOn) found.go.push(`${branch} is still at ${short(builtOn)} ${where.place}, the commit you built on`);
        else found.stop.push(`${where.moved(branch)} is at ${short(tip.commit)} ${where.place}, not ${short(builtOn)} you built on`);
      } else if (tip.status === 'missing') {
        Object.assign(details, { exists: false, moved: own ? true : false });
        if (own) found.stop.push(`${branch} no longer exists ${where.place}`);
        else found.go.push(`${branch} does not exist ${where.place} yet: pushing creates it`);
      } else {
        found.unknown.push(`could not resolve ${branch} ${where.place}: ${tip.reason}`);
      }
    }
    return { ...decide(found), details };
  },
};

/**
 * Where the branch was read, as the reasons name it. A remote's branch moves when someone pushes;
 * a `file://` repository's branch is read in that repository itself (for the CLI, its
 * remote-tracking ref, as the last fetch recorded it), where a commit, a fetch or a reset moves it:
 * no one need have pushed, and there is no remote to speak of.
 */
function placeOf(repository: string): { place: string; moved: (branch: string) => string } {
  if (repository.startsWith('file://')) return { place: 'in the local repository', moved: (branch) => `${branch} moved: it` };
  return { place: 'on the remote', moved: (branch) => `someone else pushed: ${branch}` };
}

function pullState(pull: PullRequestRead | undefined, number: number, found: { stop: string[]; unknown: string[]; go: string[] }): 'open' | 'closed' | 'merged' | null {
  if (!pull) {
    found.unknown.push(`pull request #${number} could not be read: this task has no GitHub access`);
    return null;
  }
  if (pull.status === 'missing') {
    found.stop.push(`GitHub has no pull request #${number} now`);
    return null;
  }
  if (pull.status === 'failed') {
    found.unknown.push(`could not read pull request #${number}: ${pull.reason}`);
    return null;
  }
  const state = pull.pullRequest.merged ? 'merged' : pull.pullRequest.state;
  if (state === 'open') found.go.push(`pull request #${number} is open`);
  else found.stop.push(`pull request #${number} was ${state}`);
  return state;
}

interface BaseFacts {
  baseRef: string;
  pinnedRef: string | undefined;
  base: ResolveResult | undefined;
  pinned: string;
  retargeted: boolean;
  number: number;
  stopIfBaseMoved: boolean;
}

/** A base that moved stops only when the host asked; a base that could not be read is unknown only then. */
function baseFinding(facts: BaseFacts, found: { stop: string[]; unknown: string[]; go: string[] }): void {
  const { baseRef, base, pinned, stopIfBaseMoved } = facts;
  const unasked = stopIfBaseMoved ? '' : ' (reported only: ask with stopIfBaseMoved to stop for it)';
  if (!base || base.status !== 'ok') {
    const why = !base ? 'it was not read' : base.status === 'missing' ? `${baseRef} does not exist now` : base.reason;
    (stopIfBaseMoved ? found.unknown : found.go).push(`could not tell whether the base ${baseRef} moved: ${why}${unasked}`);
    return;
  }
  if (!facts.retargeted && base.commit === pinned) {
    found.go.push(`the base ${baseRef} is still at ${short(pinned)}`);
    return;
  }
  const moved = facts.retargeted
    ? `pull request #${facts.number} now merges into ${baseRef} (it was ${facts.pinnedRef ?? 'another branch'}), at ${short(base.commit)}`
    : `the base ${baseRef} moved ${short(pinned)} -> ${short(base.commit)} since the task was pinned`;
  (stopIfBaseMoved ? found.stop : found.go).push(`${moved}${unasked}`);
}
