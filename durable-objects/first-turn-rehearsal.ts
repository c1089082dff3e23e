/**
 * @module durable-objects/first-turn-rehearsal
 * The isolate's turn 0 rehearsal as a GitHub task's first turn asks for it (the wiring's
 * `prepare`), once per isolate: turn 0 and its rules matrix over a repository in memory
 * (context/turn-rehearsal) while the installation token is out; then, once the turn's next
 * request is out (the pull request's files), that repository read through the GitHub source and
 * the check run's summary of the rehearsed turn (notify/check-run-summary, the rules report in
 * it), whose first runs otherwise came after GitHub's last answer (issue 56). Everything stays in
 * memory; a failure is one warning.
 */
import { onceRehearsal, rehearse, rehearseReads, type Rehearsal } from '../src/context/turn-rehearsal.ts';
import { RULES_REPORT_BUDGET, turnSummary, type CheckRunOutput } from '../src/notify/check-run-summary.ts';
import { rulesReportOrReason } from '../src/notify/rules-report.ts';

/** The isolate's rehearsal. */
export const rehearseFirstTurn = onceRehearsal(rehearse, async (input, made) => {
  await rehearseReads(input);
  rehearsedSummary(made);
});

/** The check run's output for the rehearsed turn, as the report makes a ready turn's (notify/notify-task). */
export function rehearsedSummary({ turn, matrix }: Rehearsal): CheckRunOutput {
  const rules = rulesReportOrReason({ status: 'ok', matrix }, { file: (path, line) => `https://memory.invalid/blob/${matrix.commit}/${path}${line === undefined ? '' : `#L${line}`}` }, RULES_REPORT_BUDGET);
  return turnSummary(turn, 'rehearsal', { requests: { rest: 1, graphql: 1, token: 1 }, graphqlPoints: 1, remaining: { graphql: { remaining: 4999, resetAt: '2026-01-01T01:00:00Z' } } }, rules);
}
