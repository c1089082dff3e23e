/**
 * @module checks/report-ci
 * Before saying CI passed: the check runs and commit statuses GitHub has for exactly the commit
 * (the host's `commit`, else the pull request's head or the pinned commit), and whether that
 * commit is still the head of the pull request or branch. `go` only when every check on it
 * completed and passed and it is still the head; `stop` naming each check pending or failed, or
 * the newer head; `unknown` when there are no checks, GitHub cannot answer, or the repository is
 * not on GitHub (a git URL has no checks API).
 */
import { targetRef } from '../freshness/check.ts';
import type { PullRequestRead } from '../sources/pull-requests.ts';
import type { ResolveResult } from '../sources/snapshot.ts';
import type { ActionCheck } from './action.ts';
import { readCi } from './ci.ts';
import type { ReportCiDetails } from './details.ts';
import { decide, short } from './verdict.ts';

export const reportCiCheck: ActionCheck<ReportCiDetails> = {
  plan(task, request) {
    const pr = task.pullRequest;
    const commit = request.commit ?? pr?.headSha ?? task.commit;
    const byPull = pr !== undefined && request.branch === undefined;
    const headOf = byPull ? `pull request #${pr.number}` : (request.branch ?? targetRef(task.ref));
    const ref = byPull ? (pr.headRef ?? null) : headOf;
    return {
      subject: { repository: task.repository, ref, commit, ...(pr ? { pullRequest: pr.number } : {}) },
      details: { commit, headOf, currentHead: null, isHead: null, ci: null },
    };
  },

  async read(plan, { task, request, reads, signal }) {
    const { commit, headOf } = plan.details;
    const { github } = reads;
    if (!github) {
      const reason = `${task.repository} is not a GitHub repository (owner/name): only GitHub has check runs and statuses to read, so nothing here says CI passed on ${short(commit)}`;
      return { verdict: 'unknown', reasons: [reason], details: plan.details };
    }
    const pr = task.pullRequest;
    const byPull = pr !== undefined && request.branch === undefined;
    const found = { stop: [] as string[], unknown: [] as string[], go: [] as string[] };
    const [ci, head] = await Promise.all([
      readCi(github, commit, signal),
      byPull ? github.pullRequest(pr.number, { signal }).then(fromPull) : reads.source.resolve(headOf, { signal }).then(fromBranch(headOf)),
    ]);
    found.stop.push(...ci.stop);
    found.unknown.push(...ci.unknown);
    found.go.push(...ci.go);
    if (head.current === null) (head.gone ? found.stop : found.unknown).push(head.reason);
    else if (head.current === commit) found.go.push(`${short(commit)} is still the head of ${headOf}`);
    else found.stop.push(`a newer head ${short(head.current)} is on ${headOf}: CI for ${short(commit)} says nothing about it`);
    if (head.note) found.go.push(head.note);
    const details: ReportCiDetails = { commit, headOf, currentHead: head.current, isHead: head.current === null ? null : head.current === commit, ci: ci.summary };
    return { ...decide(found), details };
  },
};

type Head = { current: string; note?: string } | { current: null; gone: boolean; reason: string; note?: undefined };

function fromPull(read: PullRequestRead): Head {
  if (read.status === 'missing') return { current: null, gone: true, reason: `GitHub has no pull request #${read.number} now` };
  if (read.status === 'failed') return { current: null, gone: false, reason: `could not read pull request #${read.number}: ${read.reason}` };
  const { pullRequest } = read;
  const state = pullRequest.merged ? 'merged' : pullRequest.state;
  return { current: pullRequest.headSha, ...(state === 'open' ? {} : { note: `pull request #${pullRequest.number} was ${state}` }) };
}

function fromBranch(branch: string) {
  return (read: ResolveResult): Head => {
    if (read.status === 'ok') return { current: read.commit };
    if (read.status === 'missing') return { current: null, gone: true, reason: `${branch} does not exist now: the commit is the head of nothing` };
    return { current: null, gone: false, reason: `could not resolve ${branch}: ${read.reason}` };
  };
}
