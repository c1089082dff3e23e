/**
 * @module knowledge/input
 * What callers may write, parsed at the edge (REST, Slack, a task recording what it learned):
 * a statement, what supports it (required: knowledge without provenance is refused), the paths
 * it applies to, and a review date no earlier than today and at most a year ahead (default 90
 * days). Schemas that check dates are made for one `today`, so the rule and the clock meet here.
 *
 * Every edge schema ends in the schema the scope object checks what it is asked to keep with
 * (`KnowledgeDraftSchema`, `KnowledgeChangeSchema`), so a body the edge accepts is one the object
 * accepts: a disagreement between the two is a 400 here, never a 500 inside the object. `paths:
 * []` means what it means in an edit: no paths, the whole repository.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { KNOWLEDGE_KINDS, KnowledgeSchema, MAX_STATEMENT_CHARS } from '../context/knowledge.ts';
import { addDays, addYears } from '../lib/utc-date.ts';
import { normalisePath } from '../sources/paths.ts';
import { RepoSchema } from '../tasks/task-request.ts';
import { DEFAULT_REVIEW_DAYS } from './review.ts';

export const MAX_PATHS = 32;

const Statement = lazySchema(() => z.string().trim().min(1, 'must not be empty').max(MAX_STATEMENT_CHARS, `must be at most ${MAX_STATEMENT_CHARS} characters`));

/** A repository path, normalised like a working directory; the root is "leave `paths` out". */
const RepoPath = lazySchema(() => z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const normal = normalisePath(value);
    if (!normal.ok) ctx.addIssue({ code: 'custom', message: normal.reason });
    else if (normal.path === '') ctx.addIssue({ code: 'custom', message: 'names the repository root; leave paths out for knowledge about the whole repository' });
    else return normal.path;
    return z.NEVER;
  }));

const Paths = lazySchema(() => z
  .array(RepoPath)
  .max(MAX_PATHS)
  .transform((paths) => [...new Set(paths)]));

const Uri = lazySchema(() => z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URI with a scheme, e.g. https://… or groundwork:task/<id>' });
      return;
    }
    if (url.username !== '' || url.password !== '') ctx.addIssue({ code: 'custom', message: 'must not hold credentials' });
  }));

export const SourceInputSchema = lazySchema(() => z.strictObject(
  {
    uri: Uri,
    path: RepoPath.optional(),
    revision: z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(z.string().regex(/^[0-9a-f]{40}$/, 'must be a 40-hex commit'))
      .optional(),
  },
  { error: (issue) => (issue.input === undefined ? 'is required: knowledge without a source is refused' : undefined) },
));

function reviewBy(today: string) {
  const latest = addYears(today, 1);
  return z.iso
    .date({ error: 'must be an ISO date (YYYY-MM-DD)' })
    .refine((date) => date >= today, { message: `must not be in the past (today is ${today})` })
    .refine((date) => date <= latest, { message: `must be at most one year ahead (${latest})` })
    .default(addDays(today, DEFAULT_REVIEW_DAYS));
}

const EDITABLE = ['statement', 'paths', 'source', 'reviewBy'] as const;

/** What the store is asked to keep: the parsed input plus who wrote it. The store assigns id, dates and version. */
export const KnowledgeDraftSchema = lazySchema(() => KnowledgeSchema.unwrap().pick({ kind: true, statement: true, paths: true, source: true, author: true, reviewBy: true }));
export type KnowledgeDraft = z.infer<typeof KnowledgeDraftSchema>;

const EditChangeSchema = lazySchema(() => z.strictObject({
  kind: z.literal('edit'),
  author: z.string().min(1).max(200),
  reviewBy: z.iso.date(),
  statement: Statement.optional(),
  /** `[]` clears the paths. */
  paths: z.array(z.string().min(1)).optional(),
  source: KnowledgeSchema.unwrap().shape.source.optional(),
}));
const RetireChangeSchema = lazySchema(() => z.strictObject({ kind: z.literal('retire'), author: z.string().min(1).max(200), reason: z.string().min(1).max(1_000) }));

/** A change that makes a new version. `paths: []` clears the paths. */
export const KnowledgeChangeSchema = z.discriminatedUnion('kind', [EditChangeSchema, RetireChangeSchema]);
export type KnowledgeChange = z.infer<typeof KnowledgeChangeSchema>;

/** A new object has paths or none: `[]` is none, as an edit's `[]` clears them. */
const withoutEmptyPaths = <T extends { paths?: string[] | undefined }>({ paths, ...rest }: T) => (paths && paths.length > 0 ? { ...rest, paths } : rest);

export function createKnowledgeSchema(today: string) {
  return z
    .strictObject({
      repo: RepoSchema,
      kind: z.enum(KNOWLEDGE_KINDS),
      statement: Statement,
      source: SourceInputSchema,
      paths: Paths.optional(),
      reviewBy: reviewBy(today),
    })
    .transform(withoutEmptyPaths)
    .pipe(KnowledgeDraftSchema.unwrap().omit({ author: true }).extend({ repo: z.string() }));
}

/** A new version: the fields given replace the old ones; a new review date is set (default 90 days), since an edit is a review. */
export function editKnowledgeSchema(today: string) {
  const fields = z.strictObject({ statement: Statement.optional(), paths: Paths.optional(), source: SourceInputSchema.optional(), reviewBy: reviewBy(today) });
  // Checked before defaults apply: `{}` changes nothing, so it makes no version.
  return z
    .unknown()
    .refine((body) => typeof body !== 'object' || body === null || EDITABLE.some((field) => field in body), { message: `name at least one of ${EDITABLE.join(', ')}` })
    .pipe(fields)
    .pipe(EditChangeSchema.unwrap().omit({ kind: true, author: true }));
}

export const RetireSchema = lazySchema(() => z.strictObject({ reason: z.string().trim().min(1, 'must not be empty').max(1_000) }).pipe(RetireChangeSchema.unwrap().omit({ kind: true, author: true })));

export function taskKnowledgeSchema(today: string) {
  return z
    .strictObject({
      statement: Statement,
      kind: z.enum(KNOWLEDGE_KINDS).default('task-summary'),
      paths: Paths.optional(),
      reviewBy: reviewBy(today),
    })
    .transform(withoutEmptyPaths)
    .pipe(KnowledgeDraftSchema.unwrap().omit({ author: true, source: true }));
}
