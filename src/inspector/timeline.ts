/**
 * @module inspector/timeline
 * The transcript as a timeline: every item in order with its id, type, role and turn, the
 * host's own items marked (the task, later context, mailbox follow-ups), and a bounded preview
 * of what it says. Host items that a turn's anatomy already shows point there instead.
 */
import { HOST_ITEM_PREFIX, messageView, TASK_ITEM_ID } from '../context/transcript.ts';
import type { TimelineItem } from '../tasks/inspection.ts';
import { bounded, type SectionText } from './anatomy.ts';

/** Characters of an item the timeline shows; the turn API serves it whole. */
export const PREVIEW_CHARS = 2_000;

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
 * `anatomyTurns`: host item id -> its turn; `begun`: the latest turn begun (-1 for none). An item
 * appended while turn n is the latest reaches the model in turn n + 1 (a reply, a tool result,
 * a follow-up); a host item in its own turn.
 */
export function timelineEntries(transcript: readonly TimelineItem[], anatomyTurns: ReadonlyMap<string, number>, begun: number): TimelineEntry[] {
  return transcript.map(({ turn: appended, item }) => {
    const turn = anatomyTurns.get(item.id) ?? appended + 1;
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
      anatomyOf: anatomyTurns.get(item.id),
      preview: bounded(view.content, PREVIEW_CHARS),
    };
  });
}
