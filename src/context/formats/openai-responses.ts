/**
 * @module context/formats/openai-responses
 * The neutral prompt as an OpenAI Responses request body, without `model` and output limits
 * (the caller's). Pure: no I/O, same input -> same body.
 *
 * - `instructions`: the host system blocks, joined by a blank line.
 * - `input`: one item per transcript item, in order: `message` (user or assistant), a tool call
 *   as `function_call` and its result as `function_call_output`, paired by `call_id`. Responses
 *   has no error flag on an output, so a failed tool's `output` is its content as recorded
 *   (which should say what failed).
 * - `tools`: function tools with `parameters` (non-strict: host schemas are not written for
 *   strict mode).
 * - `prompt_cache_key`: the prompt's cache key (agent, repository, commit), so requests that
 *   share the prefix are routed to the same cache.
 */
import type OpenAI from 'openai';
import { unreachable } from '../../lib/unreachable.ts';
import type { TranscriptItem } from '../transcript.ts';
import type { PromptInput } from './prompt.ts';

type InputItem = OpenAI.Responses.EasyInputMessage | OpenAI.Responses.ResponseFunctionToolCall | OpenAI.Responses.ResponseInputItem.FunctionCallOutput;

export interface OpenAIResponsesRequest {
  tools: OpenAI.Responses.FunctionTool[];
  instructions: string;
  input: InputItem[];
  prompt_cache_key: string;
}

export function toOpenAIResponses(input: PromptInput): OpenAIResponsesRequest {
  const body = {
    tools: input.tools.map((tool): OpenAI.Responses.FunctionTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.input_schema,
      strict: false,
    })),
    instructions: input.system.join('\n\n'),
    input: input.items.map(toInputItem),
    prompt_cache_key: input.cacheKey,
  };
  return body satisfies Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'model'>;
}

function toInputItem(item: TranscriptItem): InputItem {
  switch (item.type) {
    case 'message':
    case 'context':
    case 'mailbox':
      return { type: 'message', role: item.role, content: item.content };
    case 'tool_call':
      return { type: 'function_call', call_id: item.callId, name: item.name, arguments: JSON.stringify(item.arguments) };
    case 'tool_result':
      return { type: 'function_call_output', call_id: item.callId, output: item.content };
    default:
      return unreachable(item, 'transcript item');
  }
}
