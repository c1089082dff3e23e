/**
 * @module freshness/report
 * What a freshness check answers: the commit compared from, the ref re-resolved and where it is
 * now, one verdict per source that reached the model, and how the rule set that applies to the
 * task's focus changed between the two (files added, removed, renamed, shadowed, newly matched). The same shape serves the later-turn
 * provider, `GET /tasks/:id/freshness` and `groundwork freshness --json`.
 *
 * @example
 * { commit: '1a2b…', ref: 'main', current: '5d6e…', moved: true, checkedAt: '2026-11-20T12:00:00.000Z',
 *   sources: [{ provider: 'rules', kind: 'file', title: 'AGENTS.md', path: 'AGENTS.md', revision: '1a2b…',
 *               blob: '0f1e…', status: 'changed', currentBlob: '4c5b…' }] }
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

export const SOURCE_STATUSES = ['unchanged', 'changed', 'deleted', 'unverifiable'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** `file`: compared by blob id. `skills-index`: the SKILL.md files under a skills root, compared by blob id. */
export const SOURCE_KINDS = ['file', 'skills-index'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

const Sha = lazySchema(() => z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/));

export const SourceCheckSchema = lazySchema(() => z.object({
  provider: z.string(),
  kind: z.enum(SOURCE_KINDS),
  title: z.string(),
  /** Path in the repository (`''` for a skills index at the root). */
  path: z.string(),
  /** The commit the source is compared from: the task's, or the one the model was last told about. */
  revision: Sha,
  /** Its blob there; null for a skills index (a directory) and for a file that did not exist there. */
  blob: Sha.nullable(),
  status: z.enum(SOURCE_STATUSES),
  /** Its blob at the current commit, when it is a file there. */
  currentBlob: Sha.optional(),
  /** Why it is `unverifiable`, or what became of a `deleted` one. */
  reason: z.string().optional(),
  /** For a skills index: which skills were added, deleted or changed. */
  changes: z.array(z.string()).optional(),
}));
export type SourceCheck = z.infer<typeof SourceCheckSchema>;

export const PullRequestCheckSchema = lazySchema(() => z.object({
  number: z.number().int().positive(),
  /** The head the model was given (the task's, or the last one a freshness notice named). */
  head: Sha.nullable(),
  currentHead: Sha.nullable(),
  headMoved: z.boolean().nullable(),
  /** The base branch the task was pinned from, and the one the pull request merges into now. */
  baseRef: z.string().nullable(),
  currentBaseRef: z.string().nullable(),
  state: z.enum(['open', 'closed']).nullable(),
  /** Why the pull request could not be read. */
  reason: z.string().optional(),
}));
export type PullRequestCheck = z.infer<typeof PullRequestCheckSchema>;

/**
 * How the rule set changed for one file (or setting, or skills root), in the order a reader needs
 * them: `added` (in the tree now, and it applies, is indexed or is shadowed), `now-applies` (it
 * was there and did not apply), `renamed` (the same blob under a new path), `removed` (gone from
 * the tree), `no-longer-applies` (still there: shadowed, no longer matched, no longer imported, a
 * name or format no longer read), `changed` (a rule that still applies whose content the model
 * was not given changed), `settings` (the settings file changed what a provider reads),
 * `skill-root` (a skills root that holds skills now and held none).
 */
export const RULE_CHANGES = ['added', 'now-applies', 'renamed', 'removed', 'no-longer-applies', 'changed', 'settings', 'skill-root'] as const;
export type RuleChangeKind = (typeof RULE_CHANGES)[number];

export const RuleChangeSchema = lazySchema(() => z.object({
  change: z.enum(RULE_CHANGES),
  /** The provider whose rule set it is (`rules`, `skills`). */
  provider: z.string(),
  /** The file, the settings file, or the skills root. */
  path: z.string(),
  /** What it was renamed from, the file it replaces (or that replaces it), or the file that shadows it. */
  from: z.string().optional(),
  format: z.string().optional(),
  /** Its verdict at the commit compared from and now (`applied`, `indexed`, `not-applied`, `shadowed`, `loaded-by-client`), when it had one. */
  verdict: z.string().optional(),
  currentVerdict: z.string().optional(),
  blob: Sha.optional(),
  currentBlob: Sha.optional(),
  /** The change in one line with its reason: `src/AGENTS.override.md added: it replaces src/AGENTS.md for src`. */
  line: z.string(),
}));
export type RuleChange = z.infer<typeof RuleChangeSchema>;

export const RuleSetCheckSchema = lazySchema(() => z.object({
  /** `unchanged`: the same files apply, are indexed and are shadowed, with the same settings; `unverifiable`: see `reason`. */
  status: z.enum(['unchanged', 'changed', 'unverifiable']),
  reason: z.string().optional(),
  /** The client the task named (issue 50): the verdicts are its own (`loaded-by-client`: it loads the file itself; `applied`: Groundwork gives it). */
  client: z.string().optional(),
  changes: z.array(RuleChangeSchema),
}));
export type RuleSetCheck = z.infer<typeof RuleSetCheckSchema>;

export const FreshnessReportSchema = lazySchema(() => z.object({
  /** The commit compared from: the task's pinned commit (or the last one a freshness notice named). */
  commit: Sha,
  /** The ref re-resolved: the branch or tag the task named, a pull request's base, or `HEAD`. */
  ref: z.string(),
  /** Where `ref` points now; null when it could not be resolved (see `reason`). */
  current: Sha.nullable(),
  moved: z.boolean().nullable(),
  checkedAt: z.iso.datetime(),
  reason: z.string().optional(),
  pullRequest: PullRequestCheckSchema.optional(),
  sources: z.array(SourceCheckSchema),
  /**
   * The rule set for the task's focus at the commit compared from and where `ref` points now
   * (context/rule-set): absent when the host could not compute one (an untrusted task).
   */
  ruleSet: RuleSetCheckSchema.optional(),
}));
export type FreshnessReport = z.infer<typeof FreshnessReportSchema>;
