/**
 * @module tasks/task-index
 * What a tenant's task index keeps about each task, and how it is queried: newest first, by
 * keyset (`createdAt`, then task id), so a page never repeats or skips a task when tasks are
 * created between pages (a new task sorts before every cursor already handed out).
 *
 * Each row carries the task's `seq`, a counter the task bumps before every report: reports can
 * arrive twice or out of order (at-least-once), and the index keeps only the highest.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ORIGINS } from '../context/provider.ts';
import { isGitUrl, isLocalRepo, TASK_STATUSES, type TaskRequest } from './task-request.ts';

const TASK_ID = /^[0-9a-f]{64}$/;
/** Characters of the request text the list shows. */
export const REQUEST_PREVIEW_CHARS = 200;
/** Characters of the request text later tasks' history shows (as written, line breaks kept). */
export const REQUEST_EXCERPT_CHARS = 1_000;

export const TaskIndexRowSchema = lazySchema(() => z.object({
  taskId: z.string().regex(TASK_ID),
  tenant: z.string().min(1),
  seq: z.number().int().nonnegative(),
  status: z.enum(TASK_STATUSES),
  reason: z.string().nullable(),
  origin: z.enum(ORIGINS),
  /** As it may be shown: a git URL without credentials. */
  repo: z.string(),
  agent: z.string(),
  /** The start of the request text. */
  request: z.string(),
  commit: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  expiresAt: z.number().int(),
  /** The pull request the task is about; absent when it is about none, and on rows reported before it was kept. */
  pullRequest: z.number().int().positive().optional(),
  /** The start of the request as written (`REQUEST_EXCERPT_CHARS`); absent on rows reported before it was kept. */
  requestExcerpt: z.string().optional(),
}));
export type TaskIndexRow = z.infer<typeof TaskIndexRowSchema>;

/** The earlier tasks on one repository that a task's history shows (see TaskIndex.earlier). */
export interface EarlierTasksQuery {
  repo: string;
  /** Only tasks that sort after this one (older, or as old with a lower id), so a retry sees the same. */
  before: TaskCursor;
  /** Its tasks come first. */
  pullRequest?: number | undefined;
  limit: number;
  now: number;
}

export interface TaskCursor {
  createdAt: number;
  taskId: string;
}

export interface TaskIndexQuery {
  limit: number;
  /** Only tasks that sort after this one (older, or as old with a lower id). */
  after?: TaskCursor | undefined;
  status?: TaskIndexRow['status'] | undefined;
  origin?: TaskIndexRow['origin'] | undefined;
  /** Compared by `repoKey`: GitHub names in any case. */
  repo?: string | undefined;
  /** Tasks that expired by then are not listed. */
  now: number;
}

/**
 * The repository as the list filters it: GitHub names ignore case, git URLs do not.
 *
 * @example
 * repoKey('Acme/Widgets') // 'acme/widgets'
 */
export function repoKey(repo: string): string {
  return isGitUrl(repo) || isLocalRepo(repo) ? repo : repo.toLowerCase();
}

/** What `\s` and `String.prototype.trim` count as whitespace, one code point at a time. */
const WHITESPACE = /^\s$/;

/**
 * The first `REQUEST_PREVIEW_CHARS` code points of the request, on one line: whitespace runs are
 * one space, none at either end. Reads only as far as the preview needs, so a long request (a
 * pull request's body) costs what a short one does on every report.
 */
export function requestPreview(request: TaskRequest['request']): string {
  const points: string[] = [];
  let gap = false;
  for (const point of request) {
    if (WHITESPACE.test(point)) {
      gap = points.length > 0;
      continue;
    }
    if (gap) points.push(' ');
    gap = false;
    points.push(point);
    if (points.length > REQUEST_PREVIEW_CHARS) return `${points.slice(0, REQUEST_PREVIEW_CHARS - 1).join('')}…`;
  }
  return points.join('');
}

/** The start of the request as written, at most `REQUEST_EXCERPT_CHARS` code points; reads no further. */
export function requestExcerpt(request: TaskRequest['request']): string {
  let count = 0;
  let kept = 0;
  for (const point of request) {
    count++;
    if (count > REQUEST_EXCERPT_CHARS) return `${request.slice(0, kept)}…`;
    if (count < REQUEST_EXCERPT_CHARS) kept += point.length;
  }
  return request;
}

/** `<createdAt>-<task id>`: opaque to clients, checked strictly when it comes back. */
export function encodeCursor(cursor: TaskCursor): string {
  return `${cursor.createdAt}-${cursor.taskId}`;
}

export function decodeCursor(text: string): TaskCursor | undefined {
  const match = /^(0|[1-9][0-9]{0,15})-([0-9a-f]{64})$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const createdAt = Number(match[1]);
  return Number.isSafeInteger(createdAt) ? { createdAt, taskId: match[2] } : undefined;
}

/** Newest first: later `createdAt`, then the higher task id. */
export function newestFirst(a: TaskCursor, b: TaskCursor): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}

export interface TaskPage {
  rows: TaskIndexRow[];
  /** Where the next page starts, or null on the last page. */
  next: string | null;
}

/**
 * One page over the indexes of several tenants (a tenant and those it was granted): each index
 * answers one more than a page from the same cursor, and the merge keeps the newest `limit`.
 *
 * @example
 * await listTaskPage(['api:acme', 'github:42'], { limit: 20, now }, (tenant, query) => indexOf(tenant).list(query))
 */
export async function listTaskPage(tenants: readonly string[], query: TaskIndexQuery, read: (tenant: string, query: TaskIndexQuery) => Promise<TaskIndexRow[]>): Promise<TaskPage> {
  const pages = await Promise.all(tenants.map((tenant) => read(tenant, { ...query, limit: query.limit + 1 })));
  const merged = pages.flat().sort(newestFirst);
  const rows = merged.slice(0, query.limit);
  const last = rows.at(-1);
  return { rows, next: merged.length > query.limit && last ? encodeCursor(last) : null };
}
