/**
 * @module checks/verdict
 * What every check answers, whatever the action: `go` when nothing the action depends on moved
 * or failed, `stop` naming what did, `unknown` when it could not be read (never `go`); what was
 * read (`subject`) and the reasons, in words a person and a model can act on. The details are
 * the action's own (see each action's module).
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

export const VERDICTS = ['go', 'stop', 'unknown'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const Sha = lazySchema(() => z.string().regex(/^[0-9a-f]{40}$/));

export const CheckSubjectSchema = lazySchema(() => z.object({
  /** The repository's identity, as the task shows it (a git URL without credentials). */
  repository: z.string(),
  /** The branch (or `HEAD`, the default branch) that was read; null when none was. */
  ref: z.string().nullable(),
  /** The commit the question is about: built on (push), reported (report-ci), reviewed (merge), or where the ref is now (apply-knowledge). */
  commit: Sha.nullable(),
  pullRequest: z.number().int().positive().optional(),
}));
export type CheckSubject = z.infer<typeof CheckSubjectSchema>;

/** Reasons kept per answer; the rest are counted in one more. */
export const MAX_REASONS = 20;
/** A reason's length, so one hostile check name cannot make a record large. */
export const MAX_REASON_CHARS = 400;

export const ReasonsSchema = lazySchema(() => z.array(z.string().max(MAX_REASON_CHARS)).max(MAX_REASONS + 1));

/** What an action decided from what it read. */
export interface Finding<D> {
  verdict: Verdict;
  reasons: string[];
  details: D;
  /** What was read, when reading it told more than the plan knew (the commit a ref points to now). */
  subject?: CheckSubject;
}

/**
 * The verdict from what was found: any `stop` reason stops (it is a fact whatever else could not
 * be read); else any read that failed makes it `unknown`; else `go`. Reasons in that order.
 */
export function decide(found: { stop: string[]; unknown: string[]; go: string[] }): { verdict: Verdict; reasons: string[] } {
  const verdict: Verdict = found.stop.length > 0 ? 'stop' : found.unknown.length > 0 ? 'unknown' : 'go';
  return { verdict, reasons: [...found.stop, ...found.unknown, ...found.go] };
}

const MORE = /^\+(\d+) more$/;

/**
 * At most {@link MAX_REASONS} reasons, each at most {@link MAX_REASON_CHARS}, and `+N more` for
 * the rest. A list bounded before keeps counting what it left out, so bounding again (after adding
 * a reason before the count) never loses the count.
 */
export function boundReasons(reasons: readonly string[]): string[] {
  let list = reasons.map((reason) => (reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason));
  let more = 0;
  const counted = MORE.exec(list.at(-1) ?? '');
  if (counted) {
    more = Number(counted[1]);
    list = list.slice(0, -1);
  }
  if (list.length > MAX_REASONS) {
    more += list.length - MAX_REASONS;
    list = list.slice(0, MAX_REASONS);
  }
  return more > 0 ? [...list, `+${more} more`] : list;
}

export function short(sha: string): string {
  return sha.slice(0, 7);
}
