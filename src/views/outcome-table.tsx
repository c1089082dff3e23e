/**
 * @module views/outcome-table
 * What every provider of a turn did: outcome and reason, size, and its duration as a bar
 * (inline SVG, so no style attribute is needed under the CSP).
 */
import type { Child } from 'hono/jsx';
import type { OutcomeRow } from '../inspector/task-page.ts';
import { TableSection, type Column } from './table-section.tsx';
import { count, Visible, visibleText } from './text.tsx';

const COLUMNS: Column[] = [{ label: 'Provider' }, { label: 'Category' }, { label: 'Outcome' }, { label: 'Reason' }, { label: 'Chars', num: true }, { label: 'Tokens', num: true }, { label: 'Duration' }];

export function OutcomeTable({ turn, outcomes }: { turn: number; outcomes: OutcomeRow[] }): Child {
  return (
    <TableSection titleId={`outcomes-${turn}`} title="Providers" caption={<>Every provider of turn {turn} and what happened to it</>} columns={COLUMNS}>
            {outcomes.map((outcome) => (
              <tr data-provider={visibleText(outcome.name)}>
                <th scope="row">
                  <Visible text={outcome.name} />
                </th>
                <td>
                  <Visible text={outcome.category} />
                </td>
                <td>
                  <span class={`badge o-${outcome.outcome}`}>{outcome.outcome}</span>
                </td>
                <td class="reason">{outcome.reason ? <Visible text={outcome.reason} /> : <span class="muted">—</span>}</td>
                <td class="num">{count(outcome.chars)}</td>
                <td class="num">{count(outcome.tokens)}</td>
                <td>
                  <DurationBar share={outcome.share} ms={outcome.durationMs} />
                </td>
              </tr>
            ))}
    </TableSection>
  );
}

function DurationBar({ share, ms }: { share: number; ms: number }): Child {
  const label = `${Math.round(ms)} ms`;
  const width = Math.max(0, Math.min(100, share * 100)).toFixed(1);
  return (
    <span class="duration">
      <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label={label}>
        <rect class="track" x="0" y="0" width="100" height="10" />
        <rect class="fill" x="0" y="0" width={width} height="10" />
      </svg>
      {label}
    </span>
  );
}
