#!/usr/bin/env node
/**
 * @module examples/call-model
 * Reads one turn of a Groundwork task as a model request body and sends it with the vendor's
 * own SDK, then posts the `usage` the vendor answered back to the task
 * (`POST /tasks/:id/turns/:n/usage`), so the inspector shows whether the prompt cache paid off.
 * Without the vendor's API key it prints the body instead (and posts nothing), so it is safe to try.
 *
 *   GROUNDWORK_URL=http://127.0.0.1:PORT GROUNDWORK_TOKEN=… npm run -s call-model -- <task id> [turn=0] [format=anthropic] [model]
 *
 * (`npm run call-model` runs it on the Node 22 this project pins, which runs TypeScript as it is;
 * so does `npx node examples/call-model.ts`. A plain `node` older than 22.18 cannot.)
 *
 * The body is ready to send except for what only the caller decides: the model (the fourth
 * argument, else `MODEL`, else `DEFAULT_MODELS`) and the output limit. Keys: `ANTHROPIC_API_KEY`
 * for `anthropic`, `OPENAI_API_KEY` for `openai-responses` and `openai-chat`.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { fileURLToPath } from 'node:url';
import type { AnthropicRequest } from '../src/context/formats/anthropic.ts';
import { FORMATS, type Format, type FormattedRequest } from '../src/context/formats/format.ts';
import type { OpenAIChatRequest } from '../src/context/formats/openai-chat.ts';
import type { OpenAIResponsesRequest } from '../src/context/formats/openai-responses.ts';

const MAX_OUTPUT_TOKENS = 4096;

/** A model the SDK's own list names: the literal members of its `Model` union, without the open `string`. */
type Listed<T> = T extends string ? (string extends T ? never : T) : never;

/**
 * The model each vendor's request goes to when none is given: current models from the pinned
 * SDKs' own lists (@anthropic-ai/sdk 1.10.0's `Model`, which its own examples use, and whose
 * DEPRECATED_MODELS gives `claude-sonnet-4-5` an end of life of 2026-11-30; openai 7.55.0's
 * `ChatModel`, the model its README uses). `satisfies` fails the typecheck when an SDK upgrade
 * drops one, and test/node/call-model.test.ts fails when the SDK marks one deprecated.
 */
export const DEFAULT_MODELS = {
  anthropic: 'claude-sonnet-5-5' satisfies Listed<Anthropic.Messages.Model>,
  openai: 'gpt-5.5' satisfies Listed<OpenAI.ChatModel>,
} as const;

/** The model to use: the argument, else `MODEL`, else the vendor's default. */
export function chooseModel(format: Format, argument: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  return argument || env['MODEL'] || (format === 'anthropic' ? DEFAULT_MODELS.anthropic : DEFAULT_MODELS.openai);
}

export interface SendOptions {
  apiKey: string;
  model: string;
  /** For tests: where the SDK sends its request. */
  fetch?: typeof fetch;
}

/** The model's answer, tagged with the format it came in. */
export type ModelAnswer =
  | { format: 'anthropic'; answer: Anthropic.Messages.Message }
  | { format: 'openai-responses'; answer: OpenAI.Responses.Response }
  | { format: 'openai-chat'; answer: OpenAI.Chat.Completions.ChatCompletion };

/** Sends a formatted request with the vendor's SDK and returns the model's answer. */
export async function sendRequest(request: FormattedRequest, options: SendOptions): Promise<ModelAnswer> {
  const client = { apiKey: options.apiKey, ...(options.fetch ? { fetch: options.fetch } : {}) };
  switch (request.format) {
    case 'anthropic':
      return { format: request.format, answer: await new Anthropic(client).messages.create({ model: options.model, max_tokens: MAX_OUTPUT_TOKENS, ...request.body }) };
    case 'openai-responses':
      return { format: request.format, answer: await new OpenAI(client).responses.create({ model: options.model, max_output_tokens: MAX_OUTPUT_TOKENS, ...request.body }) };
    case 'openai-chat':
      return { format: request.format, answer: await new OpenAI(client).chat.completions.create({ model: options.model, max_completion_tokens: MAX_OUTPUT_TOKENS, ...request.body }) };
  }
}

/** Where Groundwork is, and how to reach it (a test hands in the Worker's own `fetch`). */
export interface Groundwork {
  base: string;
  token: string;
  fetch?: typeof fetch;
}

/** GET /tasks/:id/turns/:n?format=… from a Groundwork deployment. */
export async function readTurnRequest(groundwork: Groundwork, taskId: string, turn: number, format: Format): Promise<FormattedRequest> {
  const get = groundwork.fetch ?? fetch;
  const res = await get(`${groundwork.base}/tasks/${encodeURIComponent(taskId)}/turns/${turn}?format=${format}`, { headers: { authorization: `Bearer ${groundwork.token}` } });
  if (!res.ok) throw new Error(`Groundwork answered ${res.status}: ${await res.text()}`);
  const body: unknown = await res.json();
  // The server built this body for `format`; the tag says which vendor shape it is.
  if (format === 'anthropic') return { format, body: body as AnthropicRequest };
  if (format === 'openai-responses') return { format, body: body as OpenAIResponsesRequest };
  return { format, body: body as OpenAIChatRequest };
}

/**
 * Posts what the model API reported for the turn's request back to the task, in the vendor's
 * own shape: `POST /tasks/:id/turns/:n/usage`. Returns the task's answer (what it recorded).
 */
export async function postUsage(groundwork: Groundwork, taskId: string, turn: number, reply: ModelAnswer): Promise<unknown> {
  const body = { format: reply.format, model: reply.answer.model, usage: reply.answer.usage };
  if (body.usage === undefined || body.usage === null) throw new Error(`the ${reply.format} answer carries no usage to report`);
  const post = groundwork.fetch ?? fetch;
  const res = await post(`${groundwork.base}/tasks/${encodeURIComponent(taskId)}/turns/${turn}/usage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${groundwork.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer: unknown = await res.json();
  if (!res.ok) throw new Error(`Groundwork answered ${res.status} to the usage report: ${JSON.stringify(answer)}`);
  return answer;
}

async function main(argv: string[]): Promise<void> {
  const [taskId, turn = '0', format = 'anthropic', modelArgument] = argv;
  const base = process.env['GROUNDWORK_URL'] ?? 'http://localhost:8787';
  const token = process.env['GROUNDWORK_TOKEN'];
  if (!taskId || !token || !isFormat(format)) {
    throw new Error(`usage: GROUNDWORK_URL=… GROUNDWORK_TOKEN=… npm run -s call-model -- <task id> [turn] [${FORMATS.join('|')}] [model (else MODEL, else ${DEFAULT_MODELS.anthropic} or ${DEFAULT_MODELS.openai})]`);
  }
  const groundwork = { base, token };
  const request = await readTurnRequest(groundwork, taskId, Number(turn), format);
  const keyName = request.format === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  const apiKey = process.env[keyName];
  const model = chooseModel(request.format, modelArgument, process.env);
  if (!apiKey) {
    console.error(`${keyName} is not set, so the ${request.format} request body is printed, not sent (set ${keyName} to send it, to ${model}; the fourth argument or MODEL picks another model).`);
    console.log(JSON.stringify(request.body, null, 2));
    return;
  }
  console.error(`sending the ${request.format} request to ${model}`);
  const reply = await sendRequest(request, { apiKey, model });
  console.log(JSON.stringify(reply.answer, null, 2));
  // The answer came; a usage report that fails is said, not thrown over it.
  await postUsage(groundwork, taskId, Number(turn), reply).then(
    (recorded) => console.error(`usage reported to turn ${turn}: ${JSON.stringify(recorded)}`),
    (error: unknown) => console.error(`usage not reported: ${error instanceof Error ? error.message : String(error)}`),
  );
}

function isFormat(value: string): value is Format {
  return FORMATS.some((known) => known === value);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
