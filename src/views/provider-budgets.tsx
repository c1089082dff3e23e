/**
 * @module views/provider-budgets
 * Under the context window: each provider's tokens against its budget as a small bar, and what
 * was kept from the model (cut files, left-out skills, material not given), each linked to the
 * section or notice that shows it.
 */
import type { Child } from 'hono/jsx';
import type { BudgetRow } from '../inspector/budgets.ts';
import { percent } from './context-window.tsx';
import { count, Visible, visibleText } from './text.tsx';

export function ProviderBudgets({ turn, rows }: { turn: number; rows: BudgetRow[] }): Child {
  return (
    <section aria-labelledby={`budgets-${turn}`}>
      <h4 id={`budgets-${turn}`}>Budgets and what they cut</h4>
      <ul class="budgets">
        {rows.map((row) => (
          <li data-provider={visibleText(row.provider)}>
            <span class="budget-head">
              <strong>
                <Visible text={row.provider} />
              </strong>{' '}
              <UseBar tokens={row.tokens} budget={row.budget} />{' '}
              <span class="muted">
                {count(row.tokens)}
                {row.budget !== undefined ? ` of ${count(row.budget)} tokens (${percent(row.tokens, row.budget)})` : ' tokens (no budget recorded)'} · <Visible text={row.outcome} />
              </span>
            </span>
            {row.cuts.length > 0 ? (
              <ul class="cuts">
                {row.cuts.map((cut) => (
                  <li>{cut.anchor ? <a href={`#${cut.anchor}`}><Visible text={cut.text} /></a> : <Visible text={cut.text} />}</li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function UseBar({ tokens, budget }: { tokens: number; budget?: number | undefined }): Child {
  const width = budget ? Math.max(0, Math.min(100, (tokens / budget) * 100)).toFixed(1) : '0';
  return (
    <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label={budget ? `${count(tokens)} of ${count(budget)} tokens` : `${count(tokens)} tokens`}>
      <rect class="track" x="0" y="0" width="100" height="10" />
      <rect class="fill" x="0" y="0" width={width} height="10" />
    </svg>
  );
}
