/**
 * @module views/rule-files
 * Every instruction file a turn's providers found and what became of it: applied (and why),
 * indexed, or not applied (and why). Paths and reasons are repository text: escaped by JSX,
 * linked only through the inspector's safe links.
 */
import type { Child } from 'hono/jsx';
import { ruleFilesAnchor } from '../inspector/budgets.ts';
import type { RuleFileRow } from '../inspector/task-page.ts';
import { TableSection, type Column } from './table-section.tsx';
import { MaybeLink, Visible } from './text.tsx';

const COLUMNS: Column[] = [{ label: 'File' }, { label: 'Format' }, { label: 'Verdict' }, { label: 'Why' }];

const BADGE: Record<RuleFileRow['verdict'], string> = { applied: 'o-included', indexed: 'o-empty', 'not-applied': 'o-budget-excluded', shadowed: 'o-budget-excluded', 'loaded-by-client': 'o-empty' };

export function RuleFiles({ turn, files }: { turn: number; files: RuleFileRow[] }): Child {
  if (files.length === 0) return null;
  return (
    <TableSection id={ruleFilesAnchor(turn)} titleId={`rule-files-title-${turn}`} title="Rule files" caption={<>Every instruction file found for turn {turn}, and whether it reached the model</>} columns={COLUMNS}>
            {files.map((file) => (
              <tr data-verdict={file.verdict}>
                <th scope="row">
                  <MaybeLink text={file.path} href={file.href} mono />
                </th>
                <td>
                  <Visible text={file.format} />
                </td>
                <td>
                  <span class={`badge ${BADGE[file.verdict]}`}>{file.verdict}</span>
                </td>
                <td class="reason">
                  <Visible text={file.reason} />
                </td>
              </tr>
            ))}
    </TableSection>
  );
}
