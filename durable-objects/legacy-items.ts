/**
 * @module durable-objects/legacy-items
 * Transcript rows written before items were structured (schema version 1) held every item as
 * `{ id, type, role, content, name?, callId? }`, a tool call's arguments as JSON text in
 * `content`, with `name` and `callId` optional. This turns such a row into a current item,
 * keeping its id and what the model was shown:
 *
 * - a tool call with a valid name, call id and a JSON-object `content` becomes a `tool_call`
 *   with those `arguments`; a tool result whose call id answers such a call becomes a
 *   `tool_result` (not an error: the old shape could not say);
 * - anything that cannot be a sendable call or result (no call id, arguments that are not a
 *   JSON object, a result answering no call) becomes a plain message with the same id and
 *   content: the assistant's for a call, the user's for a result, exactly the text the old
 *   `messages` view showed;
 * - a `message` or `context` item keeps its type; the old `tool` role on a message becomes `user`.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { checkPairing } from '../src/context/transcript-pairing.ts';
import { TranscriptItemSchema, type TranscriptItem } from '../src/context/transcript.ts';

const LegacyItemSchema = lazySchema(() => z.object({
  id: z.string().min(1),
  type: z.enum(['message', 'tool_call', 'tool_result', 'context']),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  name: z.string().optional(),
  callId: z.string().optional(),
}));

/** Upgrades `rows` (in transcript order); a current item passes through unchanged. */
export function upgradeLegacyItems(rows: readonly unknown[]): TranscriptItem[] {
  const upgraded: TranscriptItem[] = [];
  for (const row of rows) {
    const legacy = LegacyItemSchema.safeParse(row);
    const current = TranscriptItemSchema.safeParse(row);
    let item = current.success ? current.data : upgradeOne(LegacyItemSchema.parse(row));
    // A call or result that would leave the transcript unsendable is kept as the text it was.
    if (legacy.success && checkPairing(upgraded, [item])) item = asMessage(legacy.data);
    upgraded.push(item);
  }
  return upgraded;
}

function upgradeOne(legacy: z.infer<typeof LegacyItemSchema>): TranscriptItem {
  const { id, content, name, callId } = legacy;
  if (legacy.type === 'tool_call') {
    const call = TranscriptItemSchema.safeParse({ id, type: 'tool_call', name, callId, arguments: parseObject(content) });
    return call.success ? call.data : asMessage(legacy);
  }
  if (legacy.type === 'tool_result') {
    const result = TranscriptItemSchema.safeParse({ id, type: 'tool_result', callId, content });
    const named = TranscriptItemSchema.safeParse({ id, type: 'tool_result', callId, name, content });
    return named.success ? named.data : result.success ? result.data : asMessage(legacy);
  }
  if (legacy.type === 'context') return { id, type: 'context', role: 'user', content };
  return asMessage(legacy);
}

function asMessage(legacy: z.infer<typeof LegacyItemSchema>): TranscriptItem {
  const role = legacy.role === 'assistant' || legacy.type === 'tool_call' ? 'assistant' : 'user';
  return { id: legacy.id, type: 'message', role, content: legacy.content };
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
