/**
 * @module views/rule-set-changes
 * The freshness section's account of the rule set: whether the rules that apply to the task's
 * focus are the same at the new head, and when not, one row per change with its reason (a rule
 * file added, now shadowing another, no longer matched, a settings file that changed what is read).
 */
import type { Child } from 'hono/jsx';
import type { RuleChangeRow, RuleSetModel } from '../inspector/freshness.ts';
import { MaybeLink, Visible } from './text.tsx';

/** What left the set is marked as a failure, everything that came or changed as a warning. */
const changeClass = (change: RuleChangeRow['change']) => (change === 'removed' || change === 'no-longer-applies' ? 'o-failed' : 'o-timed-out');

/** The `Rules` fact: a count of changes, or why they could not be compared. */
export function RuleSetFact({ rules }: { rules: RuleSetModel | undefined }): Child {
  if (!rules) return null;
  return (
    <>
      <dt>Rules that apply</dt>
      <dd>
        {rules.status === 'unverifiable' ? (
          <>
            <span class="badge o-capability-gated">could not be compared</span> <Visible text={rules.reason ?? 'no reason given'} />
          </>
        ) : rules.status === 'changed' ? (
          <span class="badge o-timed-out">
            {rules.rows.length} {rules.rows.length === 1 ? 'change' : 'changes'}
          </span>
        ) : (
          <span class="badge o-included">the same</span>
        )}
      </dd>
    </>
  );
}

export function RuleSetChanges({ rules }: { rules: RuleSetModel | undefined }): Child {
  if (!rules || rules.rows.length === 0) return null;
  return (
    <div class="scroll">
      <table>
        <caption class="muted">How the rules that apply to the task's focus changed since the commit compared from{rules.client ? `, as ${rules.client} sees them` : ''}</caption>
        <thead>
          <tr>
            <th scope="col">Change</th>
            <th scope="col">Provider</th>
            <th scope="col">File</th>
            <th scope="col">What and why</th>
          </tr>
        </thead>
        <tbody>
          {rules.rows.map((row) => (
            <tr data-change={row.change}>
              <td>
                <span class={`badge ${changeClass(row.change)}`}>{row.change}</span>
              </td>
              <td>
                <Visible text={row.provider} />
              </td>
              <td>
                <MaybeLink text={row.file.text} href={row.file.href} />
              </td>
              <td class="reason">
                <Visible text={row.line} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
