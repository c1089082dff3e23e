/**
 * @module views/text
 * Text from outside (repository files, requests, transcript items, reasons, names): escaped by
 * JSX, with invisible characters shown as markers (visible-text.ts). Never passed through
 * `raw()`. Every text a view shows goes through `Visible` (or `visibleText` in an attribute).
 */
import type { Child } from 'hono/jsx';
import type { SectionText } from '../inspector/anatomy.ts';
import { visibleParts, visibleText } from './visible-text.ts';

export { visibleText };

export function Visible({ text }: { text: string }): Child {
  return (
    <>
      {visibleParts(text).map((part) =>
        'text' in part ? (
          part.text
        ) : (
          <span class="ctl" title={part.title}>
            {part.marker}
          </span>
        ),
      )}
    </>
  );
}

/** A body in a scrolling, wrapping block, with how much was left out. */
export function Body({ body, cutNote }: { body: SectionText; cutNote: string }): Child {
  return (
    <>
      <pre class="body">
        <Visible text={body.text} />
      </pre>
      {body.cut > 0 ? (
        <p class="cut">
          … {body.cut.toLocaleString('en-US')} more characters not shown here; {cutNote}
        </p>
      ) : null}
    </>
  );
}

/** `2026-11-20 12:00:03 UTC`, in a `<time>` element. */
export function Time({ iso }: { iso: string | null }): Child {
  if (!iso) return <span class="muted">—</span>;
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return (
    <time datetime={visibleText(iso)}>
      <Visible text={text} />
    </time>
  );
}

/** A link when there is an http(s) href, else the text; `mono` sets it as code. */
export function MaybeLink({ text, href, mono = false }: { text: string; href?: string | undefined; mono?: boolean }): Child {
  const content = mono ? (
    <code>
      <Visible text={text} />
    </code>
  ) : (
    <Visible text={text} />
  );
  return href ? <a href={href}>{content}</a> : content;
}

export const count = (n: number): string => n.toLocaleString('en-US');

/** A `<dt>`/`<dd>` pair for a fact that may be absent: nothing when it is. */
export function OptionalFact({ label, text }: { label: string; text: string | null | undefined }): Child {
  return text ? (
    <>
      <dt>{label}</dt>
      <dd>
        <Visible text={text} />
      </dd>
    </>
  ) : null;
}
