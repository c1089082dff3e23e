/**
 * @module views/checks-section
 * "Checks before acting": what the task answered when a host asked before pushing, reporting
 * CI, merging or applying knowledge (`POST /tasks/:id/checks`), newest first, each with its
 * verdict and reasons. Checks never changed what the model was given.
 */
import type { Child } from 'hono/jsx';
import type { ChecksModel } from '../inspector/checks.ts';
import { count, Visible } from './text.tsx';

const BADGE = { go: 'o-included', stop: 'o-failed', unknown: 'o-timed-out' } as const;

export function ChecksSection({ checks }: { checks: ChecksModel }): Child {
  return (
    <section aria-labelledby="checks">
      <h2 id="checks">Checks before acting</h2>
      {checks.count === 0 ? (
        <p class="muted">
          No check was asked for. A host asks <code>POST /tasks/:id/checks</code> before pushing, reporting CI, merging or applying knowledge.
        </p>
      ) : (
        <>
          <p>
            {count(checks.count)} check{checks.count === 1 ? '' : 's'}
            {checks.dropped > 0 ? `, the oldest ${count(checks.dropped)} no longer kept` : ''}. They read the repository and GitHub; none changed the transcript.
          </p>
          {checks.rows.map((row) => (
            <details>
              <summary>
                <span class={`badge ${BADGE[row.verdict]}`}>{row.verdict}</span> #{row.id} <Visible text={row.line} />
              </summary>
              {row.more.length > 0 ? (
                <ul class="meta">
                  {row.more.map((reason) => (
                    <li>
                      <Visible text={reason} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="meta muted">No other reason.</p>
              )}
            </details>
          ))}
        </>
      )}
    </section>
  );
}
