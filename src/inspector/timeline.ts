/**
 * @module inspector/timeline
 * The transcript as a timeline: its items in order with their id, type, role and turn, the
 * host's own items marked (the task, later context, mailbox follow-ups), and a bounded preview
 * of what each says. Host items that a turn's anatomy already shows point there instead. A page
 * shows `TIMELINE_PAGE_ITEMS` of them, so however much the transcript holds the page stays
 * bounded; the others are a link away.
 */
import { HOST_ITEM_PREFIX, messageView, TASK_ITEM_ID } from '../context/transcript.ts';
import type { TimelineItem } from '../tasks/inspection.ts';
import { bounded, type SectionText } from './anatomy.ts';

/** Characters of an item the timeline shows; the turn API serves it whole. */
export const PREVIEW_CHARS = 2_000;
/** Items one page of the timeline shows. */
export const TIMELINE_PAGE_ITEMS = 100;

/** One page of the timeline: `from` is the index of its first item in the transcript. */
export interface TimelinePage {
  entries: TimelineEntry[];
  from: number;
  total: number;
  /** Where the pages before and after start, when there are any. */
  previous?: number | undefined;
  next?: number | undefined;
  /** Where the last page starts. */
  last: number;
}

export type TimelineMark = 'task' | 'context' | 'mailbox' | 'host';

export interface TimelineEntry {
  /** The turn whose request first carries the item: its own turn for a host item, else the next. */
  turn: number;
  /** False while that turn has not begun. */
  delivered: boolean;
  id: string;
  type: string;
  role: string;
  mark: TimelineMark | null;
  /** A tool call's name and call id, a result's call id and whether it failed, a follow-up's sender. */
  detail?: string | undefined;
  /** The turn whose anatomy shows this item, for the task and context items. */
  anatomyOf?: number | undefined;
  /** What it says, cut to `PREVIEW_CHARS`. */
  preview: SectionText;
}

function mark(id: string, type: string): TimelineMark | null {
  if (id === TASK_ITEM_ID) return 'task';
  if (type === 'context') return 'context';
  if (id.startsWith(`${HOST_ITEM_PREFIX}mailbox:`)) return 'mailbox';
  return id.startsWith(HOST_ITEM_PREFIX) ? 'host' : null;
}

/**
 * The page of the timeline that starts at `from` (clamped to the last page). `hostTurns`: host
 * item id -> its turn; `shown`: the turns whose anatomy the page shows in full (an item of any
 * other turn gets its preview here instead); `begun`: the latest turn begun (-1 for none).
 */
export function timelinePage(transcript: readonly TimelineItem[], hostTurns: ReadonlyMap<string, number>, shown: ReadonlySet<number>, begun: number, from = 0): TimelinePage {
  const total = transcript.length;
  const last = total === 0 ? 0 : Math.floor((total - 1) / TIMELINE_PAGE_ITEMS) * TIMELINE_PAGE_ITEMS;
  const start = Math.min(Math.max(0, from), last);
  const end = Math.min(total, start + TIMELINE_PAGE_ITEMS);
  return {
    entries: timelineEntries(transcript.slice(start, end), hostTurns, begun, shown),
    from: start,
    total,
    previous: start > 0 ? Math.max(0, start - TIMELINE_PAGE_ITEMS) : undefined,
    next: end < total ? end : undefined,
    last,
  };
}

/**
 * `hostTurns`: host item id -> its turn; `begun`: the latest turn begun (-1 for none). An item
 * appended while turn n is the latest reaches the model in turn n + 1 (a reply, a tool result,
 * a follow-up); a host item in its own turn. `shown`: the turns whose anatomy shows their host
 * item (all when absent).
 */
export function timelineEntries(transcript: readonly TimelineItem[], hostTurns: ReadonlyMap<string, number>, begun: number, shown?: ReadonlySet<number>): TimelineEntry[] {
  return transcript.map(({ turn: appended, item }) => {
    const own = hostTurns.get(item.id);
    const turn = own ?? appended + 1;
    const view = messageView(item);
    const detail =
      item.type === 'tool_call'
        ? `${item.name} · call ${item.callId}`
        : item.type === 'tool_result'
          ? `answers call ${item.callId}${item.isError ? ' · failed' : ''}`
          : item.type === 'mailbox'
            ? `from ${item.from} · received ${item.receivedAt}`
            : undefined;
    return {
      turn,
      delivered: turn <= begun,
      id: item.id,
      type: item.type,
      role: view.role,
      mark: mark(item.id, item.type),
      detail,
      anatomyOf: own !== undefined && (shown === undefined || shown.has(own)) ? own : undefined,
      preview: bounded(view.content, PREVIEW_CHARS),
    };
  });
}
