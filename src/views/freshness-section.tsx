/**
 * @module views/freshness-section
 * "What changed since the pinned commit?": a link that asks for the read-back (a page load never
 * reads the repository), and once asked, the ref and pull request now, how the rules that apply
 * changed (rule-set-changes), and a row per source.
 */
import type { Child } from 'hono/jsx';
import type { FreshnessModel, FreshnessRow } from '../inspector/freshness.ts';
import { RuleSetChanges, RuleSetFact } from './rule-set-changes.tsx';
import { MaybeLink, OptionalFact, Time, Visible } from './text.tsx';

export function FreshnessSection({ freshness, checkHref }: { freshness: FreshnessModel | undefined; checkHref: string }): Child {
  return (
    <section aria-labelledby="freshness">
      <h2 id="freshness">Freshness</h2>
      {freshness === undefined ? (
        <p>
          This page does not read the repository when it loads. <a href={checkHref}>Check what changed since the pinned commit</a> (the same read-back as{' '}
          <code>GET /tasks/:id/freshness</code>; it reads the repository and changes nothing).
        </p>
      ) : freshness.status === 'unavailable' ? (
        <p class="muted">
          Nothing to compare yet: <Visible text={freshness.reason} />
        </p>
      ) : (
        <Checked freshness={freshness} checkHref={checkHref} />
      )}
    </section>
  );
}

function Checked({ freshness, checkHref }: { freshness: Extract<FreshnessModel, { status: 'checked' }>; checkHref: string }): Child {
  const { counts } = freshness;
  return (
    <>
      <p>
        Checked <Time iso={freshness.checkedAt} /> · <a href={checkHref}>check again</a>
      </p>
      <dl class="facts">
        <dt>Ref</dt>
        <dd>
          <Visible text={freshness.ref} />{' '}
          {freshness.moved === null ? (
            <span class="badge o-failed">could not be resolved</span>
          ) : freshness.moved ? (
            <span class="badge o-timed-out">moved</span>
          ) : (
            <span class="badge o-included">not moved</span>
          )}
        </dd>
        <dt>Compared from</dt>
        <dd>
          <MaybeLink text={freshness.from.text} href={freshness.from.href} mono />
        </dd>
        <dt>Now</dt>
        <dd>{freshness.current ? <MaybeLink text={freshness.current.text} href={freshness.current.href} mono /> : <span class="muted">unknown</span>}</dd>
        <OptionalFact label="Reason" text={freshness.reason} />
        {freshness.pullRequest ? (
          <>
            <dt>Pull request</dt>
            <dd>
              #{freshness.pullRequest.number} · <Visible text={freshness.pullRequest.state} /> · <Visible text={freshness.pullRequest.head} />
              {freshness.pullRequest.reason ? (
                <>
                  {' · '}
                  <Visible text={freshness.pullRequest.reason} />
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        <RuleSetFact rules={freshness.rules} />
        <dt>Sources</dt>
        <dd>
          {counts.changed} changed · {counts.deleted} deleted · {counts.unverifiable} unverifiable · {counts.unchanged} unchanged
        </dd>
      </dl>
      <RuleSetChanges rules={freshness.rules} />
      {freshness.rows.length === 0 ? (
        <p class="muted">No repository source reached the model, so no given source is compared.</p>
      ) : (
        <div class="scroll">
          <table>
            <caption class="muted">Every source that reached the model, compared by blob id</caption>
            <thead>
              <tr>
                <th scope="col">Verdict</th>
                <th scope="col">Provider</th>
                <th scope="col">Source</th>
                <th scope="col">Blob given</th>
                <th scope="col">Blob now</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {freshness.rows.map((row) => (
                <SourceRow row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

const VERDICT_CLASS: Record<FreshnessRow['status'], string> = { changed: 'o-timed-out', deleted: 'o-failed', unverifiable: 'o-capability-gated', unchanged: 'o-included' };

function SourceRow({ row }: { row: FreshnessRow }): Child {
  return (
    <tr data-status={row.status}>
      <td>
        <span class={`badge ${VERDICT_CLASS[row.status]}`}>{row.status}</span>
      </td>
      <td>
        <Visible text={row.provider} />
      </td>
      <td>
        <MaybeLink text={row.source.text} href={row.source.href} />
        {row.title !== row.source.text ? (
          <span class="muted">
            {' '}
            (<Visible text={row.title} />)
          </span>
        ) : null}
      </td>
      <td>{row.blob ? <MaybeLink text={row.blob} mono /> : <span class="muted">—</span>}</td>
      <td>{row.currentBlob ? <MaybeLink text={row.currentBlob} mono /> : <span class="muted">—</span>}</td>
      <td class="reason">{row.notes.length > 0 ? <Visible text={row.notes.join('; ')} /> : <span class="muted">—</span>}</td>
    </tr>
  );
}
