/**
 * @module tasks/turn-usage
 * What a model API reported for one turn's request (`POST /tasks/:id/turns/:n/usage`), in the
 * vendor's own shape, and the one normal form the task records and the inspector shows: input
 * tokens (cached ones included), read from the cache, written to it, and output.
 *
 * - `anthropic`: Messages `usage`. `input_tokens` counts only what was neither read from nor
 *   written to the cache, so the whole input is it plus `cache_read_input_tokens` and
 *   `cache_creation_input_tokens`.
 * - `openai-responses`: Responses `usage`; `input_tokens` includes
 *   `input_tokens_details.cached_tokens`.
 * - `openai-chat`: Chat Completions `usage`; `prompt_tokens` includes
 *   `prompt_tokens_details.cached_tokens`. OpenAI reports writes (`cache_write_tokens`) only on
 *   newer models; without it, what was written is unknown (null), never 0.
 *
 * Only the fields used are modelled; the rest of a vendor's block (server tool use, service tier,
 * output details) is dropped, so a vendor adding a field never breaks a report. Every count is
 * a whole number of at most `MAX_TOKENS`, and a cached count above the input it is part of is
 * refused, naming the field.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { FORMATS } from '../context/formats/format.ts';

/** More than any context window: a larger count is a mistake, not a request. */
export const MAX_TOKENS = 100_000_000;
/** A usage report is a few hundred bytes; the route refuses bodies past this. */
export const MAX_USAGE_BYTES = 16 * 1024;

const Count = lazySchema(() => z.number().int('must be a whole number').nonnegative().max(MAX_TOKENS, `must be at most ${MAX_TOKENS}`));
const MaybeCount = Count.nullable().optional();

const AnthropicUsageSchema = z.object({
  input_tokens: Count,
  output_tokens: Count,
  cache_read_input_tokens: MaybeCount,
  cache_creation_input_tokens: MaybeCount,
});

const ResponsesUsageSchema = lazySchema(() => z
  .object({
    input_tokens: Count,
    output_tokens: Count,
    input_tokens_details: z.object({ cached_tokens: Count, cache_write_tokens: MaybeCount }).optional(),
    total_tokens: Count.optional(),
  })
  .refine((usage) => (usage.input_tokens_details?.cached_tokens ?? 0) <= usage.input_tokens, {
    message: 'counts more cached tokens than input_tokens, which includes them',
    path: ['input_tokens_details', 'cached_tokens'],
  }));

const ChatUsageSchema = lazySchema(() => z
  .object({
    prompt_tokens: Count,
    completion_tokens: Count,
    prompt_tokens_details: z.object({ cached_tokens: MaybeCount, cache_write_tokens: MaybeCount }).nullable().optional(),
    total_tokens: Count.optional(),
  })
  .refine((usage) => (usage.prompt_tokens_details?.cached_tokens ?? 0) <= usage.prompt_tokens, {
    message: 'counts more cached tokens than prompt_tokens, which includes them',
    path: ['prompt_tokens_details', 'cached_tokens'],
  }));

const ModelSchema = lazySchema(() => z.string().min(1).max(200).regex(/^[^\p{Cc}]+$/u, 'no control characters').optional());

/** The body of `POST /tasks/:id/turns/:n/usage`: the format the turn was read in, and the vendor's `usage` block. */
export const UsageReportSchema = lazySchema(() => z.discriminatedUnion(
  'format',
  [
    z.strictObject({ format: z.literal('anthropic'), model: ModelSchema, usage: AnthropicUsageSchema }),
    z.strictObject({ format: z.literal('openai-responses'), model: ModelSchema, usage: ResponsesUsageSchema }),
    z.strictObject({ format: z.literal('openai-chat'), model: ModelSchema, usage: ChatUsageSchema }),
  ],
  { error: `must be one of ${FORMATS.join(', ')}` },
));
export type UsageReport = z.output<typeof UsageReportSchema>;

export const TurnUsageSchema = lazySchema(() => z.object({
  format: z.enum(FORMATS),
  model: z.string().optional(),
  /** The whole input of the request, cached tokens included. */
  inputTokens: z.number().int().nonnegative(),
  /** Of the input, read from the vendor's prompt cache. */
  cachedTokens: z.number().int().nonnegative(),
  /** Of the input, written to the cache; null when the vendor did not say. */
  cacheWriteTokens: z.number().int().nonnegative().nullable(),
  outputTokens: z.number().int().nonnegative(),
  /** The vendor's block as validated (fields we do not use dropped), for a later look. */
  usage: z.record(z.string(), z.unknown()),
  receivedAt: z.string(),
}));
export type TurnUsage = z.infer<typeof TurnUsageSchema>;

export function normaliseUsage(report: UsageReport, receivedAt: string): TurnUsage {
  const model = report.model === undefined ? {} : { model: report.model };
  switch (report.format) {
    case 'anthropic': {
      const { usage } = report;
      const read = usage.cache_read_input_tokens ?? 0;
      const written = usage.cache_creation_input_tokens ?? null;
      return {
        format: report.format,
        ...model,
        inputTokens: usage.input_tokens + read + (written ?? 0),
        cachedTokens: read,
        cacheWriteTokens: written,
        outputTokens: usage.output_tokens,
        usage,
        receivedAt,
      };
    }
    case 'openai-responses': {
      const { usage } = report;
      const details = usage.input_tokens_details;
      return {
        format: report.format,
        ...model,
        inputTokens: usage.input_tokens,
        cachedTokens: details?.cached_tokens ?? 0,
        cacheWriteTokens: details?.cache_write_tokens ?? null,
        outputTokens: usage.output_tokens,
        usage,
        receivedAt,
      };
    }
    case 'openai-chat': {
      const { usage } = report;
      const details = usage.prompt_tokens_details;
      return {
        format: report.format,
        ...model,
        inputTokens: usage.prompt_tokens,
        cachedTokens: details?.cached_tokens ?? 0,
        cacheWriteTokens: details?.cache_write_tokens ?? null,
        outputTokens: usage.completion_tokens,
        usage,
        receivedAt,
      };
    }
  }
}

/** Whether two records report the same usage (the time each arrived aside): a retried post. */
export function sameUsage(a: TurnUsage, b: TurnUsage): boolean {
  const { receivedAt: _a, ...left } = a;
  const { receivedAt: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}

/** The share of the input read from the cache, 0..1; 0 for an empty input. */
export function cachedShare(usage: Pick<TurnUsage, 'inputTokens' | 'cachedTokens'>): number {
  return usage.inputTokens === 0 ? 0 : usage.cachedTokens / usage.inputTokens;
}
