/**
 * @module views/timeline
 * The transcript in order, one page at a time: each item's id, type, role and turn, the host's
 * items marked, and a bounded preview; the task and context items point to the turn whose
 * anatomy shows them. Links lead to the pages before and after.
 */
import type { Child } from 'hono/jsx';
import type { TimelinePage } from '../inspector/timeline.ts';
import { Body, count, Visible } from './text.tsx';

/** `pageHref(from)`: the link to the page of the timeline starting at item `from`. */
export function Timeline({ page, pageHref }: { page: TimelinePage; pageHref: (from: number) => string }): Child {
  const { entries } = page;
  const paged = page.total > entries.length;
  const pager = paged ? (
    <p class="pager">
      Items {count(page.from + 1)}–{count(page.from + entries.length)} of {count(page.total)}
      {page.previous !== undefined ? (
        <>
          {' · '}
          <a href={pageHref(0)}>first</a> · <a href={`${pageHref(page.previous)}`}>earlier</a>
        </>
      ) : null}
      {page.next !== undefined ? (
        <>
          {' · '}
          <a href={pageHref(page.next)}>later</a> · <a href={pageHref(page.last)}>last</a>
        </>
      ) : null}
    </p>
  ) : null;
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Transcript timeline</h2>
      {entries.length === 0 ? <p class="muted">Nothing in the transcript yet.</p> : null}
      {pager}
      <ol class="timeline" start={page.from + 1}>
        {entries.map((entry) => (
          <li>
            <details>
              <summary>
                <code>
                  <Visible text={entry.id} />
                </code>{' '}
                <span class={`kind${entry.mark ? ` k-${entry.mark === 'task' ? 'task' : entry.mark === 'mailbox' ? 'mailbox' : 'context'}` : ''}`}>
                  <Visible text={entry.mark ?? entry.type} />
                </span>{' '}
                <span class="muted">
                  <Visible text={`${entry.type} · ${entry.role}`} /> · {entry.delivered ? `reaches the model in turn ${entry.turn}` : `for turn ${entry.turn} (not begun)`}
                  {entry.detail ? (
                    <>
                      {' · '}
                      <Visible text={entry.detail} />
                    </>
                  ) : null}
                </span>
              </summary>
              {entry.anatomyOf !== undefined ? (
                <p class="meta">
                  Shown section by section in <a href={`#turn-${entry.anatomyOf}`}>turn {entry.anatomyOf}</a>.
                </p>
              ) : (
                <Body body={entry.preview} cutNote="the turn API (GET /tasks/:id/turns/:n) has the whole item." />
              )}
            </details>
          </li>
        ))}
      </ol>
      {pager}
    </section>
  );
}
