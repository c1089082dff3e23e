/**
 * @module checks/merge
 * Before merging a pull request: what GitHub says about it now (open, merged, a draft, where its
 * head is, whether it merges cleanly and GitHub's merge state, which folds in the base's required
 * reviews and checks), the latest review of each reviewer, and the checks on the head the host
 * reviewed. `stop` naming each thing in the way; `unknown` while GitHub is still working out
 * mergeability or cannot answer. Read in one round: the checks are those of the head the host
 * knows, and a head that moved is a `stop` of its own.
 */
import type { PullRequestReview } from '../sources/commit-checks.ts';
import type { ActionCheck } from './action.ts';
import { MAX_CHECKS, readCi } from './ci.ts';
import type { MergeDetails } from './details.ts';
import { decide, short } from './verdict.ts';

/** GitHub's merge states and what each means for merging now. */
const MERGE_STATES: Record<string, { verdict: 'stop' | 'unknown' | 'go'; says: string }> = {
  clean: { verdict: 'go', says: 'it can be merged' },
  has_hooks: { verdict: 'go', says: 'it can be merged (the server runs pre-receive hooks)' },
  blocked: { verdict: 'stop', says: 'merging is blocked: a review or check the base requires is missing' },
  behind: { verdict: 'stop', says: 'its head is behind its base, which the base requires to be up to date' },
  dirty: { verdict: 'stop', says: 'it conflicts with its base' },
  unstable: { verdict: 'stop', says: 'checks that are not required did not pass' },
  draft: { verdict: 'stop', says: 'it is a draft' },
  unknown: { verdict: 'unknown', says: 'it has not worked out the merge state yet: ask again shortly' },
};

export const mergeCheck: ActionCheck<MergeDetails> = {
  plan(task, request) {
    const pr = task.pullRequest;
    if (!pr) throw new Error('merge is checked for pull request tasks only');
    const reviewed = request.commit ?? pr.headSha;
    return {
      subject: { repository: task.repository, ref: pr.headRef ?? null, commit: reviewed, pullRequest: pr.number },
      details: { number: pr.number, reviewed, state: null, draft: null, currentHead: null, mergeable: null, mergeableState: null, reviews: null, ci: null },
    };
  },

  async read(plan, { reads, signal }) {
    const { number, reviewed } = plan.details;
    const { github } = reads;
    if (!github) return { verdict: 'unknown', reasons: [`pull request #${number} cannot be read: this task has no GitHub access`], details: plan.details };
    const found = { stop: [] as string[], unknown: [] as string[], go: [] as string[] };
    const [pull, reviews, ci] = await Promise.all([github.pullRequest(number, { signal }), github.pullRequestReviews(number, { limit: MAX_CHECKS, signal }), readCi(github, reviewed, signal)]);
    const details: MergeDetails = { ...plan.details, ci: ci.summary };

    if (pull.status === 'missing') found.stop.push(`GitHub has no pull request #${number} now`);
    else if (pull.status === 'failed') found.unknown.push(`could not read pull request #${number}: ${pull.reason}`);
    else {
      const now = pull.pullRequest;
      const state = now.merged ? 'merged' : now.state;
      Object.assign(details, { state, draft: now.draft, currentHead: now.headSha, mergeable: now.mergeable, mergeableState: now.mergeableState });
      if (state !== 'open') found.stop.push(`pull request #${number} was ${state}`);
      if (now.draft) found.stop.push(`pull request #${number} is a draft`);
      if (now.headSha !== reviewed) found.stop.push(`new commits: the head of pull request #${number} is at ${short(now.headSha)}, not ${short(reviewed)} that was reviewed`);
      if (state === 'open') mergeability(number, now.mergeable, now.mergeableState, now.draft, found);
    }

    if (reviews.status === 'failed') found.unknown.push(`could not read the reviews of pull request #${number}: ${reviews.reason}`);
    else {
      details.reviews = { ...latestReviews(reviews.items), complete: reviews.complete };
      for (const login of details.reviews.changesRequested) found.stop.push(`@${login} requested changes`);
      if (details.reviews.approved.length > 0) found.go.push(`approved by ${details.reviews.approved.map((login) => `@${login}`).join(', ')}`);
      else found.go.push('no approving review (the merge state says whether one is required)');
    }

    found.stop.push(...ci.stop);
    // For merging, a head without checks is a fact for the merge state to weigh, not an unknown.
    if (ci.none) found.go.push(`no check runs or commit statuses on ${short(reviewed)}`);
    else found.unknown.push(...ci.unknown);
    found.go.push(...ci.go);
    return { ...decide(found), details };
  },
};

function mergeability(number: number, mergeable: boolean | null, mergeableState: string | null, draft: boolean, found: { stop: string[]; unknown: string[]; go: string[] }): void {
  if (mergeable === false) found.stop.push(`pull request #${number} conflicts with its base`);
  if (mergeable === null) found.unknown.push(`GitHub has not worked out yet whether pull request #${number} merges cleanly: ask again shortly`);
  const known = mergeableState === null ? undefined : MERGE_STATES[mergeableState];
  // Said already: a conflict, a draft.
  if ((mergeableState === 'dirty' && mergeable === false) || (mergeableState === 'draft' && draft)) return;
  if (!known) {
    found.unknown.push(`GitHub's merge state of pull request #${number} is ${mergeableState === null ? 'missing' : JSON.stringify(mergeableState)}, which this check does not know`);
    return;
  }
  found[known.verdict].push(`GitHub says ${known.says} (${mergeableState})`);
}

/** Each reviewer's latest review that approved, requested changes or was dismissed; comments change nothing. */
function latestReviews(reviews: readonly PullRequestReview[]): { approved: string[]; changesRequested: string[] } {
  const latest = new Map<string, string>();
  for (const review of reviews) if (review.state === 'APPROVED' || review.state === 'CHANGES_REQUESTED' || review.state === 'DISMISSED') latest.set(review.login, review.state);
  const whose = (state: string) => [...latest].filter(([, s]) => s === state).map(([login]) => login).sort();
  return { approved: whose('APPROVED'), changesRequested: whose('CHANGES_REQUESTED') };
}
