/**
 * @module views/context-window
 * One turn's request as a picture: a bar of segments, one per section in the order the model
 * reads them, width by tokens, coloured by kind, each a link to its section; lines where the
 * prefix every task on the commit shares ends and (on a later turn) where the previous turn's
 * request ended; the groups in request order and a legend with tokens and share. Inline SVG
 * with classes only (no style attribute, no script), so it renders under the page's CSP.
 */
import type { Child } from 'hono/jsx';
import { GROUP_LABELS, KIND_LABELS, SEGMENT_GROUPS, type Segment, type WindowModel } from '../inspector/window.ts';
import { count, visibleText } from './text.tsx';

/** Width of the bar in viewBox units; segments are placed by their share of it. */
const WIDTH = 1000;

export function ContextWindow({ turn, window }: { turn: number; window: WindowModel }): Child {
  const { total } = window;
  const scale = (tokens: number) => (total > 0 ? (tokens / total) * WIDTH : 0);
  let at = 0;
  const placed = window.segments.map((segment) => {
    const x = at;
    at += segment.tokens;
    return { segment, x: scale(x), width: scale(segment.tokens) };
  });
  const groups = SEGMENT_GROUPS.flatMap((group) => {
    const tokens = window.segments.filter((segment) => segment.group === group).reduce((sum, segment) => sum + segment.tokens, 0);
    return window.segments.some((segment) => segment.group === group) ? [{ group, tokens }] : [];
  });
  const label = `${count(total)} tokens: ${window.legend.map((row) => `${KIND_LABELS[row.kind]} ${count(row.tokens)}`).join(', ')}`;
  // Segment labels name sections by their provider and title, which are repository text.
  return (
    <section aria-labelledby={`window-${turn}`}>
      <h3 id={`window-${turn}`}>Context window</h3>
      <p class="muted">
        {count(total)} tokens in this turn’s request (counted as UTF-8 bytes / 4, the counter every budget uses) · the prefix every task on this commit shares:{' '}
        {count(window.sharedPrefix)} ({percent(window.sharedPrefix, total)})
        {window.earlierRequest !== undefined ? ` · turn ${turn - 1}’s request, which this one starts with: ${count(window.earlierRequest)} (${percent(window.earlierRequest, total)})` : ''}
      </p>
      <svg class="window" viewBox={`0 0 ${WIDTH} 30`} preserveAspectRatio="none" role="img" aria-label={label} data-total={String(total)}>
        {placed.map(({ segment, x, width }) => (width > 0 ? <SegmentRect segment={segment} x={x} width={width} /> : null))}
        <Marker x={scale(window.sharedPrefix)} kind="prefix" title={`shared prefix ends: ${count(window.sharedPrefix)} tokens`} />
        {window.earlierRequest !== undefined ? <Marker x={scale(window.earlierRequest)} kind="earlier" title={`turn ${turn - 1}’s request ends: ${count(window.earlierRequest)} tokens`} /> : null}
      </svg>
      <ol class="groups" aria-label="The request's parts, in the order the model reads them">
        {groups.map(({ group, tokens }) => (
          <li>
            {GROUP_LABELS[group]} <span class="muted figures">{count(tokens)} ({percent(tokens, total)})</span>
          </li>
        ))}
      </ol>
      <ul class="legend" aria-label="Tokens by kind">
        {window.legend.map((row) => (
          <li data-kind={row.kind}>
            <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
              <rect class={`w-${row.kind}`} x="0" y="0" width="10" height="10" />
            </svg>
            {KIND_LABELS[row.kind]}{' '}
            <span class="figures">
              {count(row.tokens)} <span class="muted">{percent(row.tokens, total)}</span>
            </span>
          </li>
        ))}
        <li>
          <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
            <rect class="w-mark-prefix" x="4" y="0" width="2" height="10" />
          </svg>
          where the shared prefix ends
        </li>
      </ul>
    </section>
  );
}

function SegmentRect({ segment, x, width }: { segment: Segment; x: number; width: number }): Child {
  const rect = (
    <rect class={`seg w-${segment.kind}`} x={x.toFixed(2)} y="0" width={width.toFixed(2)} height="30" data-tokens={String(segment.tokens)} data-group={segment.group}>
      <title>{visibleText(`${segment.label} · ${count(segment.tokens)} tokens`)}</title>
    </rect>
  );
  return segment.anchor ? <a href={`#${segment.anchor}`}>{rect}</a> : rect;
}

function Marker({ x, kind, title }: { x: number; kind: 'prefix' | 'earlier'; title: string }): Child {
  return (
    <line class={`mark mark-${kind}`} x1={x.toFixed(2)} x2={x.toFixed(2)} y1="0" y2="30">
      <title>{title}</title>
    </line>
  );
}

export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '0%';
}
