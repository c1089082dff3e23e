/**
 * @module http/list-query
 * The query of `GET /tasks` and `GET /view`: `limit` (1-100, default 20), `cursor` (from the
 * previous page), and the filters `status`, `origin` and `repo`. A bad, repeated or unknown
 * parameter is a 400 naming it; an empty one (a form's "any") is as if absent.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ORIGINS } from '../context/provider.ts';
import { decodeCursor, type TaskCursor } from '../tasks/task-index.ts';
import { RepoSchema, TASK_STATUSES } from '../tasks/task-request.ts';
import { ApiError } from './errors.ts';
import { decimalParam } from './params.ts';
import { parseWith } from './validate.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const PARAMS = ['limit', 'cursor', 'status', 'origin', 'repo'] as const;

export const TaskListQuerySchema = lazySchema(() => z.object({
  limit: decimalParam(MAX_LIMIT, 1).default(DEFAULT_LIMIT),
  cursor: z
    .string()
    .transform((text, ctx): TaskCursor => {
      const cursor = decodeCursor(text);
      if (cursor) return cursor;
      ctx.addIssue({ code: 'custom', message: 'is not a cursor this API handed out (use nextCursor of the previous page)' });
      return z.NEVER;
    })
    .optional(),
  status: z.enum(TASK_STATUSES, { error: `must be one of ${TASK_STATUSES.join(', ')}` }).optional(),
  origin: z.enum(ORIGINS, { error: `must be one of ${ORIGINS.join(', ')}` }).optional(),
  /** Checked as a task's `repo` is: a name no task could have (`acme/..`) is a 400, not an empty page. */
  repo: RepoSchema.optional(),
}));
export type ListQuery = z.output<typeof TaskListQuerySchema>;

/**
 * @example
 * parseListQuery({ status: ['ready'], limit: ['5'] }) // { limit: 5, status: 'ready' }
 * parseListQuery({ colour: ['red'] }) // throws 400 "colour: unknown parameter; …"
 */
export function parseListQuery(queries: Readonly<Record<string, readonly string[]>>): ListQuery {
  const values: Record<string, string> = {};
  for (const [name, given] of Object.entries(queries)) {
    if (!(PARAMS as readonly string[]).includes(name)) throw new ApiError('bad_request', `${name}: unknown parameter; use ${PARAMS.join(', ')}`);
    if (given.length > 1) throw new ApiError('bad_request', `${name}: given more than once`);
    const [value] = given;
    if (value !== undefined && value !== '') values[name] = value;
  }
  return parseWith(TaskListQuerySchema, values);
}
