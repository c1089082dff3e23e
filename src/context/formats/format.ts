/**
 * @module context/formats/format
 * The request formats a turn can be read in, and the one dispatch from a format name to its
 * adapter. Each adapter is a pure function in its own module; a new format is one more name
 * here and one more case below (the `switch` is exhaustive).
 *
 * @example
 * const { body } = formatRequest('anthropic', await promptFromTurn(turn));
 * await new Anthropic().messages.create({ model, max_tokens: 4096, ...body });
 */
import { unreachable } from '../../lib/unreachable.ts';
import { toAnthropic, type AnthropicRequest } from './anthropic.ts';
import { toOpenAIChat, type OpenAIChatRequest } from './openai-chat.ts';
import { toOpenAIResponses, type OpenAIResponsesRequest } from './openai-responses.ts';
import type { PromptInput } from './prompt.ts';

export const FORMATS = ['anthropic', 'openai-responses', 'openai-chat'] as const;
export type Format = (typeof FORMATS)[number];

/** A request body with the format it is in. */
export type FormattedRequest =
  | { format: 'anthropic'; body: AnthropicRequest }
  | { format: 'openai-responses'; body: OpenAIResponsesRequest }
  | { format: 'openai-chat'; body: OpenAIChatRequest };

export function formatRequest(format: Format, input: PromptInput): FormattedRequest {
  switch (format) {
    case 'anthropic':
      return { format, body: toAnthropic(input) };
    case 'openai-responses':
      return { format, body: toOpenAIResponses(input) };
    case 'openai-chat':
      return { format, body: toOpenAIChat(input) };
    default:
      return unreachable(format, 'format');
  }
}
