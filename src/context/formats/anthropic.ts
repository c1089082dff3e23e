/**
 * @module context/formats/anthropic
 * The neutral prompt as an Anthropic Messages request body, without `model` and `max_tokens`
 * (the caller's). Pure: no I/O, same input -> same body.
 *
 * - `system`: the host system blocks as text blocks; `tools` with `input_schema`.
 * - `messages` alternate: items become content blocks, consecutive items of one role share a
 *   message. A tool call is a `tool_use` block in the assistant message, its result a
 *   `tool_result` block (same id) in the next user message, where results come before any text,
 *   as the API requires. Blank text, which the API refuses, is left out.
 * - `cache_control` breakpoints at the stable boundaries, at most 4 (`MAX_BREAKPOINTS`): the end
 *   of tools + system (the same for every task of the agent), the end of the commit-stable
 *   context in the first user message (the same for every task on the commit and working
 *   directory), and the last block of the transcript (the whole request, which the next turn
 *   extends).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { unreachable } from '../../lib/unreachable.ts';
import type { TranscriptItem } from '../transcript.ts';
import type { PromptInput } from './prompt.ts';

type TextBlock = Anthropic.Messages.TextBlockParam;
type ToolUseBlock = Anthropic.Messages.ToolUseBlockParam;
type ToolResultBlock = Anthropic.Messages.ToolResultBlockParam;
type Block = TextBlock | ToolUseBlock | ToolResultBlock;
type Role = 'user' | 'assistant';

export interface AnthropicRequest {
  tools: Anthropic.Messages.Tool[];
  system: TextBlock[];
  messages: Array<{ role: Role; content: Block[] }>;
}

/** The API's limit on `cache_control` breakpoints per request. */
export const MAX_BREAKPOINTS = 4;
const EPHEMERAL = { type: 'ephemeral' } as const;

export function toAnthropic(input: PromptInput): AnthropicRequest {
  const tools = input.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema }));
  const system = input.system.map((text): TextBlock => ({ type: 'text', text }));
  const { messages, stableEnd } = toMessages(input.items);

  const breakpoints = new Set<object>();
  const prefixEnd = system.at(-1) ?? tools.at(-1);
  if (prefixEnd) breakpoints.add(prefixEnd);
  if (stableEnd) breakpoints.add(stableEnd);
  const lastBlock = messages.at(-1)?.content.at(-1);
  if (lastBlock) breakpoints.add(lastBlock);
  if (breakpoints.size > MAX_BREAKPOINTS) throw new Error(`${breakpoints.size} cache breakpoints; the API takes at most ${MAX_BREAKPOINTS}`);

  const mark = <T extends object>(block: T): T => (breakpoints.has(block) ? { ...block, cache_control: EPHEMERAL } : block);
  const body = {
    tools: tools.map(mark),
    system: system.map(mark),
    messages: messages.map((message) => ({ role: message.role, content: message.content.map(mark) })),
  };
  return body satisfies Omit<Anthropic.Messages.MessageCreateParamsNonStreaming, 'model' | 'max_tokens'>;
}

interface Converted {
  messages: Array<{ role: Role; content: Block[] }>;
  /** The last block of the leading commit-stable parts of the first user message, if it has any. */
  stableEnd?: TextBlock;
}

function toMessages(items: readonly TranscriptItem[]): Converted {
  const messages: Array<{ role: Role; content: Block[] }> = [];
  let stableEnd: TextBlock | undefined;
  for (const item of items) {
    const converted = toBlocks(item);
    if (converted.blocks.length === 0) continue;
    if (stableEnd === undefined && messages.length === 0) stableEnd = converted.stableEnd;
    const last = messages.at(-1);
    if (last && last.role === converted.role) last.content = ordered(converted.role, [...last.content, ...converted.blocks]);
    else messages.push({ role: converted.role, content: ordered(converted.role, converted.blocks) });
  }
  return stableEnd ? { messages, stableEnd } : { messages };
}

/** Tool results lead a user message; everything else keeps transcript order. */
function ordered(role: Role, blocks: Block[]): Block[] {
  if (role === 'assistant') return blocks;
  return [...blocks.filter((block) => block.type === 'tool_result'), ...blocks.filter((block) => block.type !== 'tool_result')];
}

function toBlocks(item: TranscriptItem): { role: Role; blocks: Block[]; stableEnd?: TextBlock } {
  switch (item.type) {
    case 'message': {
      if (!item.parts) return { role: item.role, blocks: text(item.content) };
      const parts = item.parts.map((part) => ({ stability: part.stability, blocks: text(part.text) }));
      const firstTaskPart = parts.findIndex((part) => part.stability !== 'commit');
      const leading = firstTaskPart === -1 ? parts : parts.slice(0, firstTaskPart);
      const stableEnd = leading.flatMap((part) => part.blocks).at(-1);
      const all = parts.flatMap((part) => part.blocks);
      return stableEnd ? { role: item.role, blocks: all, stableEnd } : { role: item.role, blocks: all };
    }
    case 'context':
    case 'mailbox':
      return { role: 'user', blocks: text(item.content) };
    case 'tool_call':
      return { role: 'assistant', blocks: [{ type: 'tool_use', id: item.callId, name: item.name, input: item.arguments }] };
    case 'tool_result': {
      const result: ToolResultBlock = { type: 'tool_result', tool_use_id: item.callId };
      if (item.content !== '') result.content = item.content;
      if (item.isError) result.is_error = true;
      return { role: 'user', blocks: [result] };
    }
    default:
      return unreachable(item, 'transcript item');
  }
}

function text(value: string): TextBlock[] {
  return value.trim() === '' ? [] : [{ type: 'text', text: value }];
}
