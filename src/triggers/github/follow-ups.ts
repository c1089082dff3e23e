/**
 * @module triggers/github/follow-ups
 * Pull request deliveries that amend a task rather than only starting one. A comment that
 * mentions the App on a pull request whose latest task is still retained goes to that task's
 * mailbox; otherwise (no task yet, or it is gone, failed or full) it starts a new task as
 * before. A push (`synchronize`) starts the new review task and leaves a note in the previous
 * task's mailbox that the head moved, so an agent still working there knows.
 *
 * Every step is idempotent by the delivery's signed key (see `signedDeliveryKey`: a redelivery
 * or a replayed body has the same one), and the pull request index remembers where each delivery
 * went, so a redelivered comment lands where the first one did and is not appended twice, even
 * if a newer task started in between. Both a comment and a review are recorded there before they
 * are answered, the review as soon as its task is stored in its intake shard, so the order in
 * which the pull request's index takes them is the one order: a comment sent right after the
 * review's answer joins the review while the shard still holds it (the Task object takes its
 * delivery from the shard when the mailbox is asked first).
 */
import { MAX_MAILBOX_TEXT_CHARS } from '../../context/mailbox.ts';
import type { PullRequestIndex, PullRequestKey } from '../../tasks/pull-request-index.ts';
import type { TaskRequestInput } from '../../tasks/task-request.ts';
import type { TaskService } from '../../tasks/task-service.ts';
import type { DeliveryResult } from './delivery-result.ts';
import type { PullRequestEvent } from './events.ts';
import { commentTask, type AcceptedComment } from './map-event.ts';
import type { PullRequestLookup } from './pull-request.ts';

export interface FollowUpDeps {
  tasks: TaskService;
  pullRequests: PullRequestIndex;
  lookup: PullRequestLookup;
}

/** The host's own name as a mailbox sender, for notes no person wrote. */
export const HOST_SENDER = 'groundwork';

export async function routeComment(accepted: AcceptedComment, delivery: string, deps: FollowUpDeps): Promise<DeliveryResult> {
  const pr: PullRequestKey = { installationId: accepted.target.installationId, repo: `${accepted.target.owner}/${accepted.target.repo}`, number: accepted.number };
  const tenant = `github:${accepted.target.installationId}`;
  const { latest, routed, place } = await deps.pullRequests.lookup(pr, delivery);
  const post = { from: `@${accepted.author}`, text: accepted.body.trim().slice(0, MAX_MAILBOX_TEXT_CHARS), key: delivery };

  const target = routed ?? (latest === null ? null : { kind: 'mailbox' as const, taskId: latest });
  if (target?.kind === 'mailbox') {
    const amended = await deps.tasks.amend(target.taskId, tenant, post);
    if (amended.status === 'ok') {
      if (!routed) await deps.pullRequests.record(pr, delivery, target);
      return { kind: 'mailbox', taskId: target.taskId, itemId: amended.item.id, duplicate: amended.duplicate };
    }
    // Gone, failed or full: the comment still deserves an answer, so it starts a task of its own.
  }
  const created = await deps.tasks.create(await commentTask(accepted, deps.lookup), { idempotencyKey: delivery });
  // Where the lookup was: a review recorded while GitHub was asked about the pull request came after this comment.
  await deps.pullRequests.record(pr, delivery, { kind: 'task', taskId: created.id }, place);
  return taskResult(created);
}

export async function startReview(event: PullRequestEvent, task: TaskRequestInput, delivery: string, deps: FollowUpDeps): Promise<DeliveryResult> {
  if (task.githubInstallationId === undefined) return taskResult(await deps.tasks.create(task, { idempotencyKey: delivery }));
  const pr: PullRequestKey = { installationId: task.githubInstallationId, repo: event.repository.full_name, number: event.pull_request.number };
  // Stored first, so the index never names a task that is not. `pullRequest` makes the task list
  // itself again from its first attempt, which repairs a record below that failed.
  const review = await deps.tasks.create(task, { idempotencyKey: delivery, pullRequest: pr });
  // Recorded before the answer: from here every comment on the pull request finds the review.
  const { previous } = await deps.pullRequests.record(pr, delivery, { kind: 'task', taskId: review.id });
  if (event.action === 'synchronize' && previous !== null) {
    // Best effort: a previous task that is gone or failed has no one left to tell. Keyed by the
    // delivery, so a redelivery (after a crash before this step) leaves it, and only once.
    await deps.tasks.amend(previous, task.tenant, { from: HOST_SENDER, text: headMovedNote(event, review.id), key: delivery });
  }
  return taskResult(review);
}

function taskResult(created: Awaited<ReturnType<TaskService['create']>>): DeliveryResult {
  return { kind: 'task', taskId: created.id, status: created.status, duplicate: !created.created };
}

function headMovedNote(event: PullRequestEvent, reviewTask: string): string {
  const pr = event.pull_request;
  return [
    `Pull request #${pr.number} head moved to ${pr.head.sha}: new commits were pushed to ${pr.head.ref}.`,
    `A new review task (${reviewTask}) reviews the new head. What you read of the old head may no longer be in the pull request; read the new head before commenting or approving.`,
  ].join('\n');
}
