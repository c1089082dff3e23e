import { describe, expect, it } from 'vitest';
import { checkPairing } from '../../src/context/transcript-pairing.ts';
import { ClientItemSchema, MAX_ARGUMENT_DEPTH, messageView, TranscriptItemSchema, type TranscriptItem } from '../../src/context/transcript.ts';
import { describeIssues } from '../../src/context/zod-issues.ts';
import { LATER_ITEMS, TASK_ITEM } from '../support/prompt.ts';

const call = (id: string, callId: string, name = 'read_file'): TranscriptItem => ({ id, type: 'tool_call', role: 'assistant', name, callId, arguments: { path: 'a' } });
const result = (id: string, callId: string, name?: string): TranscriptItem => ({
  id,
  type: 'tool_result',
  role: 'tool',
  callId,
  content: 'ok',
  isError: false,
  ...(name ? { name } : {}),
});

function clientError(item: unknown): string {
  const parsed = ClientItemSchema.safeParse(item);
  return parsed.success ? 'accepted' : describeIssues(parsed.error, 'item');
}

describe('transcript items', () => {
  it('round-trips every item type through JSON without loss', () => {
    const items = [TASK_ITEM, ...LATER_ITEMS];
    const again = JSON.parse(JSON.stringify(items)).map((item: unknown) => TranscriptItemSchema.parse(item));
    expect(again).toEqual(items);
  });

  it('derives the role from the type and defaults isError, so a client may leave both out', () => {
    expect(ClientItemSchema.parse({ id: 'c', type: 'tool_call', name: 'read_file', callId: 'call_1', arguments: {} })).toMatchObject({ role: 'assistant' });
    expect(ClientItemSchema.parse({ id: 'r', type: 'tool_result', callId: 'call_1', content: '' })).toMatchObject({ role: 'tool', isError: false });
  });

  it('refuses the old shape of a tool call, host ids, context items and unknown fields, naming the field', () => {
    expect(clientError({ id: 'c', type: 'tool_call', role: 'assistant', content: '{"path":"a"}', name: 'read_file', callId: 'c1' })).toMatch(/^item\.arguments: required: the tool input as a JSON object/);
    expect(clientError({ id: 'local:x', type: 'message', role: 'user', content: 'x' })).toBe('item.id: ids starting with "local:" are reserved for the host');
    expect(clientError({ id: 'x', type: 'context', role: 'user', content: 'x' })).toBe('item.type: must be "message", "tool_call" or "tool_result"');
    // Follow-ups go through the mailbox, which wraps and records them; a client cannot forge one.
    expect(clientError({ id: 'x', type: 'mailbox', from: 'ada', content: 'x', receivedAt: '2026-11-20T12:00:00.000Z' })).toBe('item.type: must be "message", "tool_call" or "tool_result"');
    expect(clientError({ id: 'x', type: 'message', role: 'user', content: 'x', parts: [] })).toMatch(/^item: .*parts/);
    expect(clientError({ id: 'x', type: 'tool_call', name: 'read file', callId: 'c1', arguments: {} })).toMatch(/^item\.name: /);
    expect(clientError({ id: 'x', type: 'tool_call', name: 'read_file', callId: 'c 1', arguments: {} })).toMatch(/^item\.callId: /);
    expect(clientError({ id: 'x', type: 'tool_call', name: 'read_file', callId: 'c1', arguments: '{"path":"a"}' })).toMatch(/^item\.arguments: must be a JSON object/);
    expect(clientError({ id: 'x', type: 'tool_call', role: 'user', name: 'read_file', callId: 'c1', arguments: {} })).toMatch(/^item\.role: /);
  });

  it('refuses arguments nested deeper than the limit without exhausting the stack', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(clientError({ id: 'x', type: 'tool_call', name: 'read_file', callId: 'c1', arguments: deep })).toBe(`item.arguments: nested deeper than ${MAX_ARGUMENT_DEPTH} levels`);
  });

  it('refuses host parts that do not make up the content', () => {
    const bad = { ...TASK_ITEM, content: 'something else' };
    expect(TranscriptItemSchema.safeParse(bad).success).toBe(false);
  });

  it('shows a tool call in the messages view as its arguments in JSON', () => {
    expect(messageView(call('c', 'call_1'))).toEqual({ role: 'assistant', content: '{"path":"a"}' });
  });
});

describe('checkPairing', () => {
  it('accepts results that answer calls made earlier in the transcript or earlier in the batch', () => {
    expect(checkPairing([call('c1', 'k1')], [result('r1', 'k1', 'read_file'), call('c2', 'k2'), result('r2', 'k2')])).toBeUndefined();
  });

  it('names the batch index and field of a result that answers no call', () => {
    expect(checkPairing([], [call('c1', 'k1'), result('r1', 'k2')])).toEqual({ index: 1, field: 'callId', message: 'no earlier tool_call has callId "k2"' });
    // A call later in the batch does not count: a result never precedes its call.
    expect(checkPairing([], [result('r1', 'k1'), call('c1', 'k1')])).toMatchObject({ index: 0, field: 'callId' });
  });

  it('refuses a second answer, a reused call id and a result naming another tool', () => {
    expect(checkPairing([call('c1', 'k1'), result('r1', 'k1')], [result('r2', 'k1')])).toEqual({
      index: 0,
      field: 'callId',
      message: 'the call "k1" is already answered by item "r1"',
    });
    expect(checkPairing([call('c1', 'k1')], [call('c2', 'k1')])).toEqual({ index: 0, field: 'callId', message: 'call id "k1" is already used by item "c1"' });
    expect(checkPairing([call('c1', 'k1')], [result('r1', 'k1', 'search_code')])).toEqual({
      index: 0,
      field: 'name',
      message: 'the call "k1" is to "read_file", not "search_code"',
    });
  });

  it('skips items already stored, so a retried batch stays idempotent', () => {
    const stored = [call('c1', 'k1'), result('r1', 'k1')];
    expect(checkPairing(stored, [call('c1', 'k1'), result('r1', 'k1')])).toBeUndefined();
  });
});
