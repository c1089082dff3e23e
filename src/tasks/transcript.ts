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

/** Bytes (UTF-8) one client item's content may hold. */
export const MAX_ITEM_BYTES = 1_000_000;

/**
 * Bytes a task's whole transcript may hold, counted as stored (each item's JSON, UTF-8). Every
 * turn returns the transcript up to it, through a Durable Object RPC (limited to 32 MiB) and one
 * JSON response, so this cap is what keeps every turn of every task readable.
 */
export const MAX_TRANSCRIPT_BYTES = 4 * 1024 * 1024;

/** What an item costs against {@link MAX_TRANSCRIPT_BYTES}. */
export function storedItemBytes(item: TranscriptItem): number {
  return new TextEncoder().encode(JSON.stringify(item)).byteLength;
}

export const TranscriptItemSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['message', 'tool_call', 'tool_result', 'context']),
  role: z.enum(['user', 'assistant', 'tool']),
  // Unbounded here so a stored row always parses; what a client may send is bounded below.
  content: z.string(),
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
  // Bytes, not characters: a million `€` is three megabytes. Stored items keep the looser
  // schema above, so an item accepted before this check stays readable.
  content: z.string().superRefine((content, ctx) => {
    const bytes = new TextEncoder().encode(content).byteLength;
    if (bytes > MAX_ITEM_BYTES) ctx.addIssue({ code: 'custom', message: `is ${bytes} bytes (UTF-8); an item's content may hold at most ${MAX_ITEM_BYTES}` });
  }),
});

export const AppendTranscriptSchema = z.object({ items: z.array(ClientItemSchema).min(1).max(500) });
