/**
 * @module context/entry
 * What a provider returns. Entries are validated by the runner before anything else sees them.
 */
import { z } from 'zod';
import { MAX_TITLE_CHARS } from './title.ts';

export const FRESHNESS = ['pinned', 'snapshot', 'volatile'] as const;
/** `pinned`: immutable at its revision. `snapshot`: may have changed since read. `volatile`: re-read before acting. */
export type Freshness = (typeof FRESHNESS)[number];

export const SourceSchema = z.object({
  uri: z.string().min(1),
  path: z.string().min(1).optional(),
  revision: z.string().regex(/^[0-9a-f]{40}$/, 'must be a 40-hex commit').optional(),
});
export type Source = z.infer<typeof SourceSchema>;

export const EntrySchema = z
  .object({
    title: z.string().min(1).max(MAX_TITLE_CHARS),
    body: z.string(),
    source: SourceSchema,
    freshness: z.enum(FRESHNESS),
    reviewBy: z.iso.date().optional(),
    warnings: z.array(z.string()).default([]),
    /** Set by a provider that already cut the body (with the marker from `truncateToTokens`). */
    truncated: z.boolean().default(false),
  })
  .refine((entry) => entry.freshness !== 'pinned' || entry.source.revision !== undefined, {
    message: 'a pinned entry needs source.revision',
    path: ['source', 'revision'],
  });

/** What providers write (warnings optional). */
export type EntryInput = z.input<typeof EntrySchema>;
/** What the runner works with after validation. */
export type Entry = z.output<typeof EntrySchema>;
