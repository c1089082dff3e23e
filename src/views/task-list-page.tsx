/**
 * @module views/task-list-page
 * `GET /view`: a tenant's tasks (and those of the tenants it was granted), newest first, with
 * filters in a plain GET form and keyset pages.
 */
import type { Child } from 'hono/jsx';
import type { Account } from './account.tsx';
import { ORIGINS } from '../context/provider.ts';
import type { TaskListModel } from '../inspector/task-list.ts';
import { TASK_STATUSES } from '../tasks/task-request.ts';
import { Layout } from './layout.tsx';
import { StatusBadge } from './task-header.tsx';
import { Time, Visible, visibleText } from './text.tsx';

export function TaskListPage({ model, nonce, tenants, account }: { model: TaskListModel; nonce: string; tenants: string[]; account?: Account }): Child {
  const { filters } = model;
  return (
    <Layout title="Tasks · Groundwork inspector" nonce={nonce} account={account}>
      <nav class="crumbs">Groundwork inspector</nav>
      <h1>Tasks</h1>
      <p class="sub">
        Newest first, for <Visible text={tenants.join(', ')} />
      </p>
      <form class="filters" method="get" action="/view">
        <Choice label="Status" name="status" options={TASK_STATUSES} selected={filters.status} />
        <Choice label="Origin" name="origin" options={ORIGINS} selected={filters.origin} />
        <label>
          Repository
          <input name="repo" value={visibleText(filters.repo ?? '')} placeholder="owner/name or git URL" />
        </label>
        <input type="hidden" name="limit" value={String(filters.limit)} />
        {model.link ? (
          <>
            <input type="hidden" name="tenant" value={model.link.tenant} />
            <input type="hidden" name="exp" value={model.link.exp} />
            <input type="hidden" name="sig" value={model.link.sig} />
          </>
        ) : null}
        <button type="submit">Filter</button>
      </form>
      <div class="scroll">
        <table>
          <caption class="muted">{model.rows.length === 0 ? 'No tasks match.' : `${model.rows.length} task${model.rows.length === 1 ? '' : 's'} on this page`}</caption>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Origin</th>
              <th scope="col">Repository</th>
              <th scope="col">Agent</th>
              <th scope="col">Request</th>
            </tr>
          </thead>
          <tbody>
            {model.rows.map((row) => (
              <tr>
                <td>
                  <a href={row.href}>
                    <Time iso={new Date(row.createdAt).toISOString()} />
                  </a>
                </td>
                <td>
                  <StatusBadge status={row.status} />
                </td>
                <td>
                  <Visible text={row.origin} />
                  {tenants.length > 1 ? (
                    <span class="muted">
                      {' · '}
                      <Visible text={row.tenant} />
                    </span>
                  ) : null}
                </td>
                <td>
                  <Visible text={row.repo} />
                </td>
                <td>
                  <Visible text={row.agent} />
                </td>
                <td class="reason">
                  <a href={row.href}>
                    <Visible text={row.request} />
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="pager">
        {model.firstHref ? <a href={model.firstHref}>Newest</a> : null}
        {model.firstHref && model.nextHref ? ' · ' : null}
        {model.nextHref ? <a href={model.nextHref}>Older tasks</a> : null}
      </p>
    </Layout>
  );
}

/** A filter with an "any" choice first. */
function Choice({ label, name, options, selected }: { label: string; name: string; options: readonly string[]; selected?: string | undefined }): Child {
  return (
    <label>
      {label}
      <select name={name}>
        <option value="">any</option>
        {options.map((option) => (
          <option value={option} selected={selected === option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}
