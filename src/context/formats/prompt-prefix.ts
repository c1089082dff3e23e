/**
 * @module context/formats/prompt-prefix
 * How much of one request another can reuse from a vendor's prompt cache. Vendors cache a
 * request's prefix in the order they read it (tools, then system or instructions, then the
 * messages, block by block, an assistant reply's text before its tool calls); `promptText`
 * writes a body in that order, one line per unit, with cache markers left out (they move as a conversation grows and are not prompt
 * text). Two requests share a cached prefix as far as their prompt texts are byte-identical.
 * Used by the tests of the cache-stable layout and by `npm run bench`.
 */
import { unreachable } from '../../lib/unreachable.ts';
import type { FormattedRequest } from './format.ts';
import type { OpenAIChatRequest } from './openai-chat.ts';

/** The body's prompt, in the vendor's reading order, one unit per line. */
export function promptText(request: FormattedRequest): string {
  switch (request.format) {
    case 'anthropic': {
      const { tools, system, messages } = request.body;
      return lines([
        ...tools.map(withoutCacheControl),
        ...system.map(withoutCacheControl),
        ...messages.flatMap((message) => [`role:${message.role}`, ...message.content.map(withoutCacheControl)]),
      ]);
    }
    case 'openai-responses':
      return lines([...request.body.tools, request.body.instructions, ...request.body.input]);
    case 'openai-chat':
      return lines([...request.body.tools, ...request.body.messages.flatMap(chatUnits)]);
    default:
      return unreachable(request, 'format');
  }
}

export interface SharedPrefix {
  /** UTF-8 bytes both prompt texts start with. */
  bytes: number;
  /** Share of `a`'s bytes that `b` starts with too (1 when `a` is a prefix of `b`). */
  share: number;
}

export function sharedPrefix(a: string, b: string): SharedPrefix {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let bytes = 0;
  while (bytes < left.length && bytes < right.length && left[bytes] === right[bytes]) bytes++;
  return { bytes, share: left.length === 0 ? 1 : bytes / left.length };
}

function lines(units: readonly unknown[]): string {
  return units.map((unit) => JSON.stringify(unit)).join('\n');
}

/** An assistant message is read as its texts, then its tool calls, so a reply that grows by a call extends the prefix. */
function chatUnits(message: OpenAIChatRequest['messages'][number]): unknown[] {
  if (message.role !== 'assistant') return [message];
  const texts = typeof message.content === 'string' ? [message.content] : (message.content ?? []).map((part) => ('text' in part ? part.text : part.refusal));
  return ['role:assistant', ...texts, ...(message.tool_calls ?? [])];
}

function withoutCacheControl(block: object): object {
  return Object.fromEntries(Object.entries(block).filter(([key]) => key !== 'cache_control'));
}
