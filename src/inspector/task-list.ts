/**
 * @module inspector/task-list
 * The rows of the task list page and its links, gathered before rendering: each task links to
 * its page (signed when the deployment signs links, so a browser can follow it), and the next
 * page keeps the filters and the list link it was opened with.
 */
import type { ListLink } from '../tasks/list-link.ts';
import type { TaskIndexRow } from '../tasks/task-index.ts';

export interface TaskListFilters {
  status?: string | undefined;
  origin?: string | undefined;
  repo?: string | undefined;
  limit: number;
}

export interface TaskListRow extends TaskIndexRow {
  href: string;
}

export interface TaskListModel {
  rows: TaskListRow[];
  filters: TaskListFilters;
  /** The next page, or undefined on the last. */
  nextHref?: string | undefined;
  /** The first page with the same filters, when this is not it. */
  firstHref?: string | undefined;
  /** The signed list link the page was opened with (no token), kept by every link and the filter form. */
  link?: ListLink | undefined;
}

/** `/view?…` with the filters (and a cursor, and the list link) as query parameters. */
export function listHref(filters: TaskListFilters, cursor?: string, link?: ListLink): string {
  const query = new URLSearchParams(link ? { tenant: link.tenant, exp: link.exp, sig: link.sig } : {});
  for (const key of ['status', 'origin', 'repo'] as const) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  query.set('limit', String(filters.limit));
  if (cursor) query.set('cursor', cursor);
  return `/view?${query.toString()}`;
}
