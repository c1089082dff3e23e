/**
 * @module context/formats/openai-chat
 * The neutral prompt as an OpenAI Chat Completions request body, without `model` and output
 * limits (the caller's). Pure: no I/O, same input -> same body.
 *
 * - `messages`: one `system` message per host system block; user messages and context as
 *   `user` messages; consecutive assistant items (text and tool calls from one reply) as one
 *   `assistant` message with `tool_calls`; each tool result as a `tool` message naming its
 *   `tool_call_id`. Chat has no error flag on a tool message: a failed tool's content is sent
 *   as recorded.
 * - `tools`: function tools with `parameters`; `prompt_cache_key` as in the Responses format.
 */
import type OpenAI from 'openai';
import { unreachable } from '../../lib/unreachable.ts';
import type { TranscriptItem } from '../transcript.ts';
import type { PromptInput } from './prompt.ts';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type AssistantMessage = OpenAI.Chat.ChatCompletionAssistantMessageParam;
type TextPart = OpenAI.Chat.ChatCompletionContentPartText;

export interface OpenAIChatRequest {
  tools: OpenAI.Chat.ChatCompletionFunctionTool[];
  messages: ChatMessage[];
  prompt_cache_key: string;
}

export function toOpenAIChat(input: PromptInput): OpenAIChatRequest {
  const messages: ChatMessage[] = input.system.map((content) => ({ role: 'system', content }));
  // The assistant reply being built from consecutive assistant items, with its texts.
  let reply: { message: AssistantMessage; texts: TextPart[] } | undefined;
  for (const item of input.items) {
    const converted = toMessage(item);
    if (converted.role !== 'assistant') {
      reply = undefined;
      messages.push(converted.message);
      continue;
    }
    if (!reply) {
      reply = { message: { role: 'assistant' }, texts: [] };
      messages.push(reply.message);
    }
    if (converted.text !== undefined) reply.texts.push({ type: 'text', text: converted.text });
    if (converted.call) reply.message.tool_calls = [...(reply.message.tool_calls ?? []), converted.call];
    const [only, ...more] = reply.texts;
    if (only) reply.message.content = more.length === 0 ? only.text : reply.texts;
  }
  const body = {
    tools: input.tools.map((tool): OpenAI.Chat.ChatCompletionFunctionTool => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
    })),
    messages,
    prompt_cache_key: input.cacheKey,
  };
  return body satisfies Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'model'>;
}

type Converted =
  | { role: 'assistant'; text?: string; call?: OpenAI.Chat.ChatCompletionMessageFunctionToolCall }
  | { role: 'user' | 'tool'; message: ChatMessage };

function toMessage(item: TranscriptItem): Converted {
  switch (item.type) {
    case 'message':
      return item.role === 'assistant' ? { role: 'assistant', text: item.content } : { role: 'user', message: { role: 'user', content: item.content } };
    case 'context':
    case 'mailbox':
      return { role: 'user', message: { role: 'user', content: item.content } };
    case 'tool_call':
      return { role: 'assistant', call: { id: item.callId, type: 'function', function: { name: item.name, arguments: JSON.stringify(item.arguments) } } };
    case 'tool_result':
      return { role: 'tool', message: { role: 'tool', tool_call_id: item.callId, content: item.content } };
    default:
      return unreachable(item, 'transcript item');
  }
}
