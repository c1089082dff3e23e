/**
 * @module context/transcript-pairing
 * Tool calls and their results, checked before a batch is appended. Every vendor refuses a
 * request whose tool result answers no call (or a call answered twice), so such an item is
 * refused when it is appended, naming the field, rather than stored to fail every later model
 * call. The rules:
 *
 * - a `tool_call`'s `callId` is unique in the task;
 * - a `tool_result`'s `callId` names a `tool_call` earlier in the transcript or earlier in the
 *   same batch, that no other result answers yet; its `name`, when given, is the call's name.
 *
 * An item whose id is already in the transcript (or earlier in the batch) is a duplicate: it is
 * skipped, not checked again, so retrying a batch stays idempotent. A call without a result yet
 * is fine: the result may come in a later batch.
 */
import type { ToolCallItem, TranscriptItem } from './transcript.ts';

export interface PairingProblem {
  /** Index in the batch. */
  index: number;
  field: 'callId' | 'name';
  message: string;
}

export function checkPairing(transcript: readonly TranscriptItem[], batch: readonly TranscriptItem[]): PairingProblem | undefined {
  const ids = new Set<string>();
  const calls = new Map<string, ToolCallItem>();
  const answeredBy = new Map<string, string>();
  const record = (item: TranscriptItem) => {
    ids.add(item.id);
    if (item.type === 'tool_call') calls.set(item.callId, item);
    if (item.type === 'tool_result') answeredBy.set(item.callId, item.id);
  };
  transcript.forEach(record);

  for (const [index, item] of batch.entries()) {
    if (ids.has(item.id)) continue;
    if (item.type === 'tool_call') {
      const earlier = calls.get(item.callId);
      if (earlier) return { index, field: 'callId', message: `call id "${item.callId}" is already used by item "${earlier.id}"` };
    }
    if (item.type === 'tool_result') {
      const call = calls.get(item.callId);
      if (!call) return { index, field: 'callId', message: `no earlier tool_call has callId "${item.callId}"` };
      const answer = answeredBy.get(item.callId);
      if (answer) return { index, field: 'callId', message: `the call "${item.callId}" is already answered by item "${answer}"` };
      if (item.name !== undefined && item.name !== call.name) {
        return { index, field: 'name', message: `the call "${item.callId}" is to "${call.name}", not "${item.name}"` };
      }
    }
    record(item);
  }
  return undefined;
}
