/**
 * @module checks/run-check
 * One check, start to end: the action's plan from the task and the request, its reads under one
 * deadline, and the answer. Whatever the reads do (fail, hang, throw), the answer comes by the
 * deadline, and a check that did not finish is `unknown` with the reason, never `go`. Reads only:
 * recording the answer is the host's.
 *
 * @example
 * const result = await runCheck({ task, request: { action: 'report-ci' }, reads, deadlineMs: 10_000 });
 * if (result.verdict !== 'go') tellTheModel(result.reasons);
 */
import { withDeadline } from '../context/deadline.ts';
import type { ActionCheck } from './action.ts';
import { applyKnowledgeCheck } from './apply-knowledge.ts';
import type { CheckRequest } from './check-request.ts';
import type { CheckReads, CheckTask } from './check-task.ts';
import { mergeCheck } from './merge.ts';
import { pushCheck } from './push.ts';
import { reportCiCheck } from './report-ci.ts';
import type { CheckResult } from './result.ts';
import { boundReasons, type Finding } from './verdict.ts';

/** Hosts call this on their way to acting: it answers within this, whatever the remote does. */
export const CHECK_DEADLINE_MS = 10_000;

export interface RunCheckInput {
  task: CheckTask;
  request: CheckRequest;
  /** What the check may read, or why the repository could not even be opened. */
  reads: CheckReads | { unavailable: string; now(): number };
  deadlineMs: number;
  /** The caller's own abort: rethrown, not reported as a finding. */
  signal?: AbortSignal;
}

export async function runCheck(input: RunCheckInput): Promise<CheckResult> {
  switch (input.request.action) {
    case 'push':
      return { action: 'push', ...(await run(pushCheck, input)) };
    case 'report-ci':
      return { action: 'report-ci', ...(await run(reportCiCheck, input)) };
    case 'merge':
      return { action: 'merge', ...(await run(mergeCheck, input)) };
    case 'apply-knowledge':
      return { action: 'apply-knowledge', ...(await run(applyKnowledgeCheck, input)) };
  }
}

type Answer<D> = Pick<CheckResult, 'verdict' | 'checkedAt' | 'subject' | 'reasons'> & { details: D };

async function run<D>(check: ActionCheck<D>, { task, request, reads, deadlineMs, signal }: RunCheckInput): Promise<Answer<D>> {
  const plan = check.plan(task, request);
  const answer = (found: Finding<D>): Answer<D> => ({
    verdict: found.verdict,
    checkedAt: new Date(reads.now()).toISOString(),
    subject: found.subject ?? plan.subject,
    reasons: boundReasons(found.reasons),
    details: found.details,
  });
  if ('unavailable' in reads) return answer({ verdict: 'unknown', reasons: [reads.unavailable], details: plan.details });
  const bounded = await withDeadline((inner) => check.read(plan, { task, request, reads, signal: inner }), deadlineMs, { signal });
  if (bounded.kind === 'aborted') throw signal?.reason;
  if (bounded.kind === 'returned') return answer(bounded.value);
  const why = bounded.kind === 'timed-out' ? `no answer within ${deadlineMs} ms` : bounded.reason;
  return answer({ verdict: 'unknown', reasons: [`the check did not finish: ${why}`], details: plan.details });
}
