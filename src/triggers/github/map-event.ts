/**
 * @module triggers/github/map-event
 * Pull request and comment events -> the task to create, or the reason there is none.
 *
 * Trust: `trusted` says whether the host may read the repository at `baseCommit` automatically.
 * For every task made here that commit is the pull request's base, which only people with write
 * access to the installed repository can have produced, so it is trusted even when the pull
 * request comes from a fork. A fork's head is never a source of rules or skills; it reaches the
 * task only as `pullRequest` evidence, flagged `fromFork` so consumers treat its content as
 * untrusted. Who may start a task from a comment is decided separately: members and
 * collaborators of the repository only, never bots (which also stops reply loops).
 */
import type { TaskRequestInput } from '../../tasks/task-request.ts';
import { collectSkills, mentions } from '../text.ts';
import type { IssueCommentEvent, PullRequestEvent } from './events.ts';
import { pullRequestEvidence, pullRequestFacts } from './pull-request.ts';
import type { PullRequestFacts, PullRequestLookup } from './pull-request.ts';

export type MapResult = { task: TaskRequestInput } | { ignored: string };

export const REVIEW_ACTIONS: readonly string[] = ['opened', 'reopened', 'ready_for_review', 'synchronize'];
export const COMMENTER_ASSOCIATIONS: readonly string[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];
export const REVIEWER_AGENT = 'reviewer';

/** TaskRequestSchema's limit; GitHub allows longer comments. */
const MAX_REQUEST_CHARS = 20_000;

const NOT_FROM_APP = 'delivery is not from a GitHub App installation';

export interface Target {
  installationId: number;
  owner: string;
  repo: string;
}

/** The review task for a pull request that is open and not a draft. */
export function mapPullRequest(event: PullRequestEvent): MapResult {
  if (!REVIEW_ACTIONS.includes(event.action)) return { ignored: `pull_request action "${event.action}" starts no review` };
  if (!event.installation) return { ignored: NOT_FROM_APP };
  const pr = pullRequestFacts(event.pull_request);
  if (pr.draft) return { ignored: `pull request #${pr.number} is a draft; review starts when it is ready for review` };
  const target = { installationId: event.installation.id, owner: event.repository.owner.login, repo: event.repository.name };
  // The description is the author's text: it travels as evidence (task facts), not as the request.
  const request = `Review pull request #${pr.number} "${pr.title}" (${pr.headRef} into ${pr.baseRef}) in ${target.owner}/${target.repo}.`;
  return { task: taskFor(target, pr, request, []) };
}

/** A pull request comment the App was asked to act on, by someone allowed to ask. */
export interface AcceptedComment {
  target: Target;
  number: number;
  author: string;
  body: string;
}

/** Whether a comment asks the App for something, and who may: the same gate for a new task and a follow-up. */
export function acceptComment(event: IssueCommentEvent, appHandle: string): { comment: AcceptedComment } | { ignored: string } {
  const { comment, issue } = event;
  if (event.action !== 'created') return { ignored: `issue_comment action "${event.action}" starts nothing` };
  if (!issue.pull_request) return { ignored: `#${issue.number} is an issue, not a pull request` };
  if (!mentions(comment.body, appHandle)) return { ignored: `comment does not mention @${appHandle}` };
  if (comment.user.type === 'Bot') return { ignored: `comment is by the bot ${comment.user.login}` };
  if (!COMMENTER_ASSOCIATIONS.includes(comment.author_association)) {
    return { ignored: `${comment.user.login} (${comment.author_association.toLowerCase()}) may not start tasks in this repository` };
  }
  if (!event.installation) return { ignored: NOT_FROM_APP };
  const target = { installationId: event.installation.id, owner: event.repository.owner.login, repo: event.repository.name };
  return { comment: { target, number: issue.number, author: comment.user.login, body: comment.body } };
}

/** A task for an accepted comment; the comment is the request, read at the pull request's base. */
export async function commentTask(accepted: AcceptedComment, lookup: PullRequestLookup): Promise<TaskRequestInput> {
  const pr = await lookup({ ...accepted.target, number: accepted.number });
  return taskFor(accepted.target, pr, accepted.body.trim().slice(0, MAX_REQUEST_CHARS), collectSkills(accepted.body));
}

function taskFor(target: Target, pr: PullRequestFacts, request: string, skills: string[]): TaskRequestInput {
  return {
    origin: 'github',
    tenant: `github:${target.installationId}`,
    githubInstallationId: target.installationId,
    repo: `${target.owner}/${target.repo}`,
    baseCommit: pr.baseSha,
    request,
    agent: REVIEWER_AGENT,
    trusted: true,
    skills,
    pullRequest: pullRequestEvidence(pr),
    notify: { kind: 'github-check', installationId: target.installationId, owner: target.owner, repo: target.repo, headSha: pr.headSha },
  };
}
