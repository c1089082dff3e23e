/**
 * @module checks/describe
 * A check in one line, as the task page lists it and the CLI prints it:
 * `report-ci on 1a2b3c4 at 2026-11-20 18:02 UTC: stop, build failed`. The first reason is the
 * one that decided (stop reasons come first, then unknown ones).
 */
import type { CheckEntry } from './result.ts';
import { short } from './verdict.ts';

export function checkLine(check: Pick<CheckEntry, 'action' | 'verdict' | 'checkedAt' | 'subject' | 'reasons'>): string {
  const { subject } = check;
  const on = subject.commit ? short(subject.commit) : (subject.ref ?? subject.repository);
  const at = `${check.checkedAt.slice(0, 10)} ${check.checkedAt.slice(11, 16)} UTC`;
  const first = check.reasons[0];
  return `${check.action} on ${on} at ${at}: ${check.verdict}${first ? `, ${first}` : ''}`;
}
