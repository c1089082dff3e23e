/**
 * @module views/task-header
 * The facts of a task: where it came from, what it reads, and how far it got.
 */
import type { Child } from 'hono/jsx';
import type { TaskHeader } from '../inspector/task-page.ts';
import { MaybeLink, Time, Visible } from './text.tsx';

export function StatusBadge({ status }: { status: string }): Child {
  return <span class={`badge s-${status}`}>{status}</span>;
}

export function TaskHeaderSection({ header }: { header: TaskHeader }): Child {
  const pr = header.pullRequest;
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">
        Task{' '}
        <code>
          <Visible text={header.id.slice(0, 12)} />
        </code>{' '}
        <StatusBadge status={header.status} />
      </h1>
      <p class="sub">
        <Visible text={firstLine(header.request)} />
      </p>
      <dl class="facts">
        <dt>Task id</dt>
        <dd>
          <code>
            <Visible text={header.id} />
          </code>
        </dd>
        <dt>Origin</dt>
        <dd>
          <Visible text={header.origin} /> <span class="muted">(tenant <Visible text={header.tenant} />)</span>
        </dd>
        <dt>Repository</dt>
        <dd>
          <MaybeLink text={header.repository.text} href={header.repository.href} />
        </dd>
        <dt>Commit</dt>
        <dd>{header.commit ? <MaybeLink text={header.commit.text} href={header.commit.href} mono /> : <span class="muted">not pinned yet</span>}</dd>
        <dt>Ref</dt>
        <dd>
          <Visible text={header.ref} />
        </dd>
        {pr ? (
          <>
            <dt>Pull request</dt>
            <dd>
              <MaybeLink text={pr.link.text} href={pr.link.href} />
              {pr.baseRef ? (
                <>
                  {' '}
                  base <Visible text={pr.baseRef} />
                </>
              ) : null}
              {' · head '}
              <MaybeLink text={pr.head.text} href={pr.head.href} mono />
              {pr.fromFork ? (
                <>
                  {' '}
                  <span class="badge o-failed">from a fork</span>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        <dt>Working directory</dt>
        <dd>
          <code>
            <Visible text={header.cwd} />
          </code>
        </dd>
        <dt>Agent</dt>
        <dd>
          <Visible text={header.agent} /> · {header.trusted ? 'trusted' : 'untrusted (no repository content read)'}
          {header.skills.length > 0 ? (
            <>
              {' · skills '}
              <Visible text={header.skills.join(', ')} />
            </>
          ) : null}
        </dd>
        <dt>Client</dt>
        <dd>
          <Visible text={header.client === 'none' ? 'none (a host that loads no rule file itself: every rule is given)' : `${header.client} (rules it loads itself are not repeated)`} />
        </dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={header.status} />
          {header.reason ? (
            <>
              {' '}
              <Visible text={header.reason} />
            </>
          ) : null}
        </dd>
        <dt>Attempts</dt>
        <dd>{header.attempts}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={header.createdAt} />
        </dd>
        <dt>Assembled</dt>
        <dd>
          <Time iso={header.assembledAt} />
        </dd>
        <dt>Expires</dt>
        <dd>
          <Time iso={header.expiresAt} />
        </dd>
        <dt>Mailbox</dt>
        <dd>
          {header.mailbox.count === 0 ? (
            <span class="muted">no follow-ups</span>
          ) : (
            <>
              {header.mailbox.count} follow-up{header.mailbox.count === 1 ? '' : 's'}, the last{' '}
              <code>
                <Visible text={header.mailbox.lastItemId ?? ''} />
              </code>{' '}
              at <Time iso={header.mailbox.lastAt} />
            </>
          )}
        </dd>
      </dl>
    </section>
  );
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}
