/**
 * @module context/entry
 * What a provider returns. Entries are validated by the runner before anything else sees them.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { COMMIT_SHA } from '../sources/snapshot.ts';
import { MAX_TITLE_CHARS } from './title.ts';

export const FRESHNESS = ['pinned', 'snapshot', 'volatile'] as const;
/** `pinned`: immutable at its revision. `snapshot`: may have changed since read. `volatile`: re-read before acting. */
export type Freshness = (typeof FRESHNESS)[number];

export const STABILITIES = ['commit', 'task'] as const;
/**
 * What an entry depends on, which decides where the renderer places it (see `ORDER_POLICIES`).
 * `commit`: only the repository, the commit, the working directory and host settings (agent,
 * trust, provider config): every task on that commit gets the same bytes, so it can sit in the
 * prompt-cache prefix shared across tasks (rules, a skills index, a repository inventory).
 * `task`: anything the task itself chose (its request text, selected skills, pull request facts,
 * memory picked for the request). When unsure, say `task`: it is the default, because a
 * task-dependent entry wrongly marked `commit` splits the shared prefix for every task.
 */
export type Stability = (typeof STABILITIES)[number];

/** A git object id: SHA-1's 40 hex digits or SHA-256's 64 (a blob in a source, a rule file's verdict). */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export const SourceSchema = lazySchema(() => z.object({
  uri: z.string().min(1),
  path: z.string().min(1).optional(),
  revision: z.string().regex(COMMIT_SHA, 'must be a 40-hex commit').optional(),
  /** Git blob id of the content at `path@revision`, so a later check can tell whether it changed. */
  blob: z.string().regex(OBJECT_ID, 'must be a git object id').optional(),
}));
export type Source = z.infer<typeof SourceSchema>;

/** Focus paths an entry names as those it applies to; the rest are counted. */
export const MAX_APPLIES_TO = 16;
export const MAX_APPLIES_PATH_CHARS = 1024;

/**
 * Which of the task's focus paths an entry applies to (the working directory among them, `.` for
 * the root), in the task's order: the first `MAX_APPLIES_TO`, and how many in all.
 */
export const AppliesToSchema = lazySchema(() => z.object({ paths: z.array(z.string().min(1).max(MAX_APPLIES_PATH_CHARS)).max(MAX_APPLIES_TO), total: z.number().int().nonnegative() }));
export type AppliesTo = z.infer<typeof AppliesToSchema>;

export const MAX_WHY_CHARS = 400;

export const EntrySchema = lazySchema(() => z
  .object({
    title: z.string().min(1).max(MAX_TITLE_CHARS),
    body: z.string(),
    source: SourceSchema,
    freshness: z.enum(FRESHNESS),
    reviewBy: z.iso.date().optional(),
    warnings: z.array(z.string()).default([]),
    /** Set by a provider that already cut the body (with the marker from `truncateToTokens`). */
    truncated: z.boolean().default(false),
    stability: z.enum(STABILITIES).default('task'),
    appliesTo: AppliesToSchema.optional(),
    /**
     * Why the host gives it, when that is not plain (a rule the task's client does not load by
     * itself: "Claude Code reads CLAUDE.md instead"); rendered as the section's `why`.
     */
    why: z.string().min(1).max(MAX_WHY_CHARS).optional(),
  })
  .refine((entry) => entry.freshness !== 'pinned' || entry.source.revision !== undefined, {
    message: 'a pinned entry needs source.revision',
    path: ['source', 'revision'],
  }));

/** What providers write (warnings optional). */
export type EntryInput = z.input<typeof EntrySchema>;
/** What the runner works with after validation. */
export type Entry = z.output<typeof EntrySchema>;
