/**
 * @module views/rule-matrix
 * The rule files of a turn by client: for every file found, what each client does with it by
 * itself (loaded at start, lazily, shadowed, cut, not seen) or that Groundwork gives it, with
 * why. Paths and details are repository text: escaped by JSX, shown through the visible-text rule.
 */
import type { Child } from 'hono/jsx';
import { CLIENT_NAMES, CLIENT_TITLES } from '../context/client.ts';
import type { ClientCellKind } from '../context/client-load.ts';
import type { RuleFileRow } from '../inspector/task-page.ts';
import { TableSection, type Column } from './table-section.tsx';
import { MaybeLink, Visible } from './text.tsx';

const LABELS: Record<ClientCellKind, { text: string; badge: string }> = {
  loaded: { text: 'loaded', badge: 'o-included' },
  lazy: { text: 'lazily', badge: 'o-empty' },
  given: { text: 'given', badge: 'o-included' },
  'not-seen': { text: 'not seen', badge: 'o-budget-excluded' },
  shadowed: { text: 'shadowed', badge: 'o-budget-excluded' },
  cut: { text: 'cut', badge: 'o-budget-excluded' },
};

const COLUMNS: Column[] = [{ label: 'File' }, ...CLIENT_NAMES.map((name) => ({ label: name === 'none' ? 'none (Groundwork alone)' : CLIENT_TITLES[name] }))];

export function RuleMatrix({ turn, files, client }: { turn: number; files: RuleFileRow[]; client?: string | undefined }): Child {
  const rows = files.filter((file) => file.clients !== undefined && file.clients.length > 0);
  if (rows.length === 0) return null;
  return (
    <TableSection
      id={`rule-matrix-${turn}`}
      titleId={`rule-matrix-title-${turn}`}
      title="Rule files by client"
      caption={<>What each client loads by itself, and what Groundwork gives it (given){client ? `; this task's client is ${client}` : ''}</>}
      columns={COLUMNS}
    >
            {rows.map((file) => (
              <tr>
                <th scope="row">
                  <MaybeLink text={file.path} href={file.href} mono />
                </th>
                {CLIENT_NAMES.map((name) => {
                  const cell = file.clients?.find((candidate) => candidate.client === name);
                  if (!cell) return <td class="muted">—</td>;
                  const label = LABELS[cell.cell];
                  return (
                    <td data-cell={cell.cell}>
                      <span class={`badge ${label.badge}`}>{label.text}</span> <span class="reason muted"><Visible text={cell.detail} /></span>
                    </td>
                  );
                })}
              </tr>
            ))}
    </TableSection>
  );
}
