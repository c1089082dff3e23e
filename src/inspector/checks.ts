/**
 * @module inspector/checks
 * The checks a task recorded before actions, as the task page lists them: one line each
 * (`report-ci on 1a2b3c4 at 2026-11-20 18:02 UTC: stop, build failed`), newest first, with the
 * rest of its reasons, and how many older ones were dropped.
 */
import { checkLine } from '../checks/describe.ts';
import type { CheckLog } from '../checks/result.ts';
import type { Verdict } from '../checks/verdict.ts';

export interface CheckRow {
  id: number;
  verdict: Verdict;
  line: string;
  /** The reasons after the first, which the line already carries. */
  more: string[];
}

export interface ChecksModel {
  count: number;
  dropped: number;
  rows: CheckRow[];
}

export function checksModel(log: CheckLog): ChecksModel {
  return {
    count: log.count,
    dropped: log.dropped,
    rows: log.recent.map((entry) => ({ id: entry.id, verdict: entry.verdict, line: checkLine(entry), more: entry.reasons.slice(1) })),
  };
}
