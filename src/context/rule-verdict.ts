/**
 * @module context/rule-verdict
 * What happened to each instruction file a provider found: applied (and why), indexed (listed
 * so the model can ask for it), not applied (and why), shadowed by another file of its directory,
 * or loaded by the task's client itself (so Groundwork does not repeat it). A provider says it in
 * its result; the runner checks it against what the budgets kept and carries it in the
 * provider's outcome, so the turn record, the turn JSON and the inspector show one verdict per
 * file found. Each verdict may carry the files-by-clients matrix row (`clients`): how every
 * client loads the file by itself, and what Groundwork would give it (context/client-load).
 *
 * Bounded, because repository text decides how many files there are and what their paths say.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { CLIENT_NAMES } from './client.ts';
import { ClientCellSchema, type FoundRuleFile } from './client-load.ts';
import { OBJECT_ID } from './entry.ts';
import type { ContextEntry } from './outcome.ts';

export const RULE_VERDICTS = ['applied', 'indexed', 'not-applied', 'shadowed', 'loaded-by-client'] as const;
export type RuleVerdictKind = (typeof RULE_VERDICTS)[number];

/** Verdicts one outcome carries; the outcome's reason counts the rest. */
export const MAX_VERDICTS = 200;
export const MAX_VERDICT_PATH_CHARS = 512;
export const MAX_VERDICT_REASON_CHARS = 400;
export const MAX_FORMAT_CHARS = 64;

export const RuleVerdictSchema = lazySchema(() => z.object({
  path: z.string().min(1).max(MAX_VERDICT_PATH_CHARS),
  blob: z.string().regex(OBJECT_ID).optional(),
  /** The format that defined the file, e.g. `copilot-instructions`, `cursor-rule`, `agents-md`. */
  format: z.string().min(1).max(MAX_FORMAT_CHARS),
  verdict: z.enum(RULE_VERDICTS),
  reason: z.string().max(MAX_VERDICT_REASON_CHARS),
  /** One cell per client, in `CLIENT_NAMES` order; absent on turns stored before clients. */
  clients: z.array(ClientCellSchema).max(CLIENT_NAMES.length).optional(),
}));
export type RuleVerdict = z.infer<typeof RuleVerdictSchema>;

/**
 * What a provider says about a file. `entry` names the title of the entry that carries the file
 * (its own, or the index's), so the runner can tell when a budget dropped it after all. `found`
 * is what the client profiles are told about it (the provider's own business: the runner drops it).
 */
export interface RuleVerdictInput extends RuleVerdict {
  entry?: string;
  found?: Omit<FoundRuleFile, 'path' | 'format'> & {
    /** What it depends on is the commit and working directory alone (it is on the working directory's chain, or the root's). */
    shared?: boolean;
  };
}

/** Clips a path or reason to its bound, keeping the end of paths and the start of reasons. */
export function boundVerdict(verdict: RuleVerdictInput): RuleVerdictInput {
  const path = verdict.path.length <= MAX_VERDICT_PATH_CHARS ? verdict.path : `…${verdict.path.slice(verdict.path.length - MAX_VERDICT_PATH_CHARS + 1)}`;
  const reason = verdict.reason.length <= MAX_VERDICT_REASON_CHARS ? verdict.reason : `${verdict.reason.slice(0, MAX_VERDICT_REASON_CHARS - 1)}…`;
  return { ...verdict, path, reason };
}

/**
 * The verdicts as the outcome keeps them: at most {@link MAX_VERDICTS}, and how many more there
 * were (the runner says so in the outcome's reason).
 */
export function capVerdicts(verdicts: readonly RuleVerdict[]): { kept: RuleVerdict[]; leftOut: number } {
  return { kept: verdicts.slice(0, MAX_VERDICTS), leftOut: Math.max(0, verdicts.length - MAX_VERDICTS) };
}

/** Paths and reasons are clipped rather than refused: a long path is the repository's, not the provider's mistake. */
export const RuleVerdictInputSchema = lazySchema(() => z
  .object({
    path: z.string().min(1),
    blob: z.string().regex(OBJECT_ID).optional(),
    format: z.string().min(1).max(MAX_FORMAT_CHARS),
    verdict: z.enum(RULE_VERDICTS),
    reason: z.string(),
    clients: z.array(ClientCellSchema).max(CLIENT_NAMES.length).optional(),
    entry: z.string().optional(),
  })
  .transform((verdict): RuleVerdictInput => boundVerdict(verdict)));

/**
 * A file said to be applied or indexed whose entry a budget dropped after all reached the model
 * in no form: its verdict says so instead of claiming it was given.
 */
export function settleVerdicts(files: readonly RuleVerdictInput[], kept: readonly ContextEntry[]): { kept: RuleVerdict[]; leftOut: number } {
  const titles = new Set(kept.map((entry) => entry.title));
  const settled = files.map(({ entry, ...verdict }): RuleVerdict => {
    if (entry === undefined || (verdict.verdict !== 'applied' && verdict.verdict !== 'indexed') || titles.has(entry)) return verdict;
    return boundVerdict({ ...verdict, verdict: 'not-applied', reason: `${verdict.reason}, but the token budget left it out` });
  });
  return capVerdicts(settled);
}
