/**
 * @module tasks/transcript
 * The transcript as the tasks API takes it: a batch of client items. The item schemas live in
 * `context/transcript` (the format adapters translate the same items); ids are stable and unique
 * per task, and the `local:` prefix is reserved for items the host writes (the task item and
 * per-turn context items), so a client can never forge or pre-empt one.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ClientItemSchema } from '../context/transcript.ts';

export {
  ClientItemSchema,
  contextItemId,
  HOST_ITEM_PREFIX,
  TASK_ITEM_ID,
  TranscriptItemSchema,
  type TranscriptItem,
} from '../context/transcript.ts';
export { MAX_ITEM_BYTES, MAX_TRANSCRIPT_BYTES, storedItemBytes } from '../context/transcript-limits.ts';

export const AppendTranscriptSchema = lazySchema(() => z.object({ items: z.array(ClientItemSchema).min(1).max(500) }));
