/**
 * @module views/timeline
 * The transcript in order: each item's id, type, role and turn, the host's items marked, and a
 * bounded preview; the task and context items point to the turn whose anatomy shows them.
 */
import type { Child } from 'hono/jsx';
import type { TimelineEntry } from '../inspector/timeline.ts';
import { Body, Visible } from './text.tsx';

export function Timeline({ entries }: { entries: TimelineEntry[] }): Child {
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Transcript timeline</h2>
      {entries.length === 0 ? <p class="muted">Nothing in the transcript yet.</p> : null}
      <ol class="timeline">
        {entries.map((entry) => (
          <li>
            <details>
              <summary>
                <code>
                  <Visible text={entry.id} />
                </code>{' '}
                <span class={`kind${entry.mark ? ` k-${entry.mark === 'task' ? 'task' : entry.mark === 'mailbox' ? 'mailbox' : 'context'}` : ''}`}>{entry.mark ?? entry.type}</span>{' '}
                <span class="muted">
                  {entry.type} · {entry.role} · {entry.delivered ? `reaches the model in turn ${entry.turn}` : `for turn ${entry.turn} (not begun)`}
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
    </section>
  );
}
