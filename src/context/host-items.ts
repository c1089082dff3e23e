/**
 * @module context/host-items
 * The ids of the items the host writes into a task's transcript, how a host item's parts are
 * joined, and which item holds a turn's context. Apart from context/transcript (which re-exports
 * the ids) and mcp/answers so that rendering a context, making a turn and a session hook's reply
 * load neither the transcript's schemas nor the answers' checks and freshness: a session-start
 * hook made some twenty zod objects for two constants and this lookup (issue 56).
 */
import type { AssembledTurn } from './turn-schema.ts';

/** Ids starting with this are written by the host only (the task item, context items). */
export const HOST_ITEM_PREFIX = 'local:';

/** The first user item: turn 0's context and the task. */
export const TASK_ITEM_ID = 'local:task';

export function contextItemId(turn: number): string {
  return `local:context:${turn}`;
}

/** The k-th follow-up in a task's mailbox, counted from 1. */
export function mailboxItemId(k: number): string {
  return `local:mailbox:${k}`;
}

/** Between the parts of a host item, in its `content`. */
export const PART_SEPARATOR = '\n\n';

/** The context a turn added: the task message on turn 0, the `local:context:<n>` item after. */
export function turnContext(turn: AssembledTurn): string | undefined {
  const id = turn.turn === 0 ? TASK_ITEM_ID : contextItemId(turn.turn);
  const item = turn.items.find((candidate) => candidate.id === id);
  return item && 'content' in item ? item.content : undefined;
}
