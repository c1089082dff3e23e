/**
 * @module views/table-section
 * The inspector's tables: a section with its heading, and a table that scrolls sideways on a
 * narrow screen, with a caption and one header row. The rows are the caller's; every table of a
 * turn is read the same way by a screen reader (a labelled section, column headers with scope).
 */
import type { Child } from 'hono/jsx';

export interface Column {
  label: Child;
  /** Right-aligned, for counts. */
  num?: boolean;
}

export function ScrollTable({ caption, columns, children }: { caption?: Child; columns: readonly Column[]; children?: Child }): Child {
  return (
    <div class="scroll">
      <table>
        {caption === undefined ? null : <caption class="muted">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (column.num ? <th scope="col" class="num">{column.label}</th> : <th scope="col">{column.label}</th>))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** `titleId` labels the section; `id`, when given, is the section's own anchor. */
export function TableSection(props: { id?: string; titleId: string; title: string; caption: Child; columns: readonly Column[]; children?: Child }): Child {
  return (
    <section {...(props.id ? { id: props.id } : {})} aria-labelledby={props.titleId}>
      <h3 id={props.titleId}>{props.title}</h3>
      <ScrollTable caption={props.caption} columns={props.columns}>
        {props.children}
      </ScrollTable>
    </section>
  );
}
