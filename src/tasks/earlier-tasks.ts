/**
 * @module tasks/earlier-tasks
 * The history provider's reader (context/task-history) over a tenant's task index: one query
 * for the tasks on this task's repository created before it, its pull request's first. The
 * index is the task's own tenant's (one object per tenant), and every row is checked against
 * that tenant again here, so no other tenant's task can be shown whatever the index answers.
 *
 * Links to the earlier tasks' inspector pages are signed (tasks/view-link), so a person reading
 * this task's context in the inspector can follow them in a browser, as the check run's and the
 * Slack reply's links are. Their expiry comes from the task, not the clock: when the earlier task
 * expires, or `VIEW_LINK_TTL_HOURS` after this task was created if that is sooner, so a retry of
 * this task's first turn renders the same bytes. Without `VIEW_LINK_SECRET` the link is the plain
 * page, which opens with an API token, and says so.
 */
import type { EarlierTask, TaskHistoryReader } from '../context/task-history.ts';
import { untilAborted } from '../lib/abortable.ts';
import { linkExpiry, signedViewUrl, type ViewLinkSettings } from './view-link.ts';
import { REQUEST_EXCERPT_CHARS, REQUEST_PREVIEW_CHARS, TaskIndexRowSchema, type EarlierTasksQuery, type TaskIndexRow } from './task-index.ts';

export interface EarlierTasksIndex {
  earlier(query: EarlierTasksQuery): Promise<unknown>;
}

/** The task whose history is read. */
export interface HistorySubject {
  taskId: string;
  tenant: string;
  /** As the index keeps it (`displayRepo`). */
  repo: string;
  createdAt: number;
  pullRequest?: number | undefined;
}

export interface EarlierTasksOptions {
  origin?: string | undefined;
  /**
   * Asks the index now for this many tasks (the most a reader may ask for), so a question for at
   * most as many is answered from that one query: the index is asked beside the task's other
   * first reads instead of after them (issue 56). Without it, each question asks the index.
   */
  ahead?: number;
  /** How links are signed: `VIEW_LINK_SECRET` and `VIEW_LINK_TTL_HOURS`. */
  links?: ViewLinkSettings;
  now: () => number;
}

export function earlierTasksReader(index: EarlierTasksIndex, subject: HistorySubject, options: EarlierTasksOptions): TaskHistoryReader {
  const ask = (limit: number): Promise<unknown> =>
    index.earlier({ repo: subject.repo, before: { createdAt: subject.createdAt, taskId: subject.taskId }, pullRequest: subject.pullRequest, limit, now: options.now() });
  // The index answers in its order, so the first `limit` of a longer answer are its answer for `limit`.
  const early = options.ahead === undefined ? undefined : ask(options.ahead);
  // Nobody may ask (the provider is off in the repository's settings): its failure is no one's.
  early?.catch(() => undefined);
  return {
    async earlier({ limit, signal }) {
      const answer = early && options.ahead !== undefined && limit <= options.ahead ? untilAborted(early, signal) : ask(limit);
      const rows = TaskIndexRowSchema.array().parse(await answer);
      const shown = rows.filter((row) => row.tenant === subject.tenant && row.taskId !== subject.taskId).slice(0, limit);
      return Promise.all(shown.map(async (row) => ({ ...earlierTask(row), ...(await pageLink(row, subject, options)) })));
    },
  };
}

/** The earlier task's page: signed to expire with it (or the TTL after this task was created), else plain. */
async function pageLink(row: TaskIndexRow, subject: HistorySubject, options: EarlierTasksOptions): Promise<Pick<EarlierTask, 'viewUrl' | 'viewUrlSigned'>> {
  if (options.origin === undefined) return { viewUrl: null, viewUrlSigned: false };
  const secret = options.links?.secret;
  if (!secret) return { viewUrl: `${options.origin}/tasks/${row.taskId}/view`, viewUrlSigned: false };
  const exp = linkExpiry(subject.createdAt, row.expiresAt, options.links?.ttlHours);
  return { viewUrl: await signedViewUrl(options.origin, row.taskId, secret, exp), viewUrlSigned: true };
}

function earlierTask(row: TaskIndexRow): Omit<EarlierTask, 'viewUrl' | 'viewUrlSigned'> {
  const [request, max] = row.requestExcerpt === undefined ? [row.request, REQUEST_PREVIEW_CHARS] : [row.requestExcerpt, REQUEST_EXCERPT_CHARS];
  const finished = row.status === 'ready' || row.status === 'failed';
  return {
    id: row.taskId,
    origin: row.origin,
    request,
    requestCut: request.endsWith('…') && Array.from(request).length >= max,
    status: row.status,
    reason: row.reason,
    agent: row.agent,
    commit: row.commit,
    pullRequest: row.pullRequest ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: finished ? new Date(row.updatedAt).toISOString() : null,
  };
}
