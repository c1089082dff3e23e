/**
 * @module context/transcript-limits
 * How much a transcript may hold, in bytes. Every turn returns the transcript through a Durable
 * Object RPC (limited to 32 MiB) and one JSON response, so a cap on the whole is what keeps every
 * turn of every task readable; a cap on one item keeps one append from taking it all. Both count
 * UTF-8 bytes, never characters: a million `€` is three megabytes.
 */

/** Bytes (UTF-8) one client item's text may hold: a message's or tool result's content, a tool call's arguments as JSON. */
export const MAX_ITEM_BYTES = 1_000_000;

/** Bytes a task's whole transcript may hold, counted as stored: each item's JSON, UTF-8. */
export const MAX_TRANSCRIPT_BYTES = 4 * 1024 * 1024;

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** What an item costs against {@link MAX_TRANSCRIPT_BYTES}. */
export function storedItemBytes(item: unknown): number {
  return utf8Bytes(JSON.stringify(item));
}

/** The issue for client text over {@link MAX_ITEM_BYTES}, or undefined when it fits. */
export function itemBytesIssue(text: string, what = "an item's content"): string | undefined {
  const bytes = utf8Bytes(text);
  return bytes > MAX_ITEM_BYTES ? `is ${bytes} bytes (UTF-8); ${what} may hold at most ${MAX_ITEM_BYTES}` : undefined;
}

/**
 * The one cap check every append to a transcript goes through (client items, follow-ups, a
 * turn's context item): why `adding` more bytes cannot join the `held` ones, or undefined when
 * they fit. Nothing is ever appended past the cap, so every turn of every task stays readable.
 */
export function transcriptCapIssue(held: number, adding: number): string | undefined {
  if (adding === 0 || held + adding <= MAX_TRANSCRIPT_BYTES) return undefined;
  return `appending ${adding} bytes would bring the transcript to ${held + adding}, over its cap of ${MAX_TRANSCRIPT_BYTES} bytes; nothing was appended (start a new task with parentTaskId to continue)`;
}
