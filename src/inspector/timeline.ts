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
  turn: number;
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

export function timelineEntries(transcript: readonly TimelineItem[], anatomyTurns: ReadonlyMap<string, number>): TimelineEntry[] {
  return transcript.map(({ turn, item }) => {
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
