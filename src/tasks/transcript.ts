/**
 * @module tasks/transcript
 * Transcript items: the append-only record of a task's conversation. Ids are stable and unique
 * per task; the `local:` prefix is reserved for items the host writes (the task item and
 * per-turn context items), so a client can never forge or pre-empt one.
 */
import { z } from 'zod';

export const HOST_ITEM_PREFIX = 'local:';

/** The first user item: the task with turn 0's context merged in. */
export const TASK_ITEM_ID = 'local:task';

export function contextItemId(turn: number): string {
  return `local:context:${turn}`;
}

export const TranscriptItemSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['message', 'tool_call', 'tool_result', 'context']),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string().max(1_000_000),
  /** Tool name for tool calls and results. */
  name: z.string().max(200).optional(),
  /** Pairs a tool result with its call. */
  callId: z.string().max(200).optional(),
});
export type TranscriptItem = z.infer<typeof TranscriptItemSchema>;

/** What a client may append: no host-reserved ids, no context items. */
export const ClientItemSchema = TranscriptItemSchema.extend({
  id: TranscriptItemSchema.shape.id.refine((id) => !id.startsWith(HOST_ITEM_PREFIX), `ids starting with "${HOST_ITEM_PREFIX}" are reserved for the host`),
  type: z.enum(['message', 'tool_call', 'tool_result']),
});

export const AppendTranscriptSchema = z.object({ items: z.array(ClientItemSchema).min(1).max(500) });
