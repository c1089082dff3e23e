/**
 * `POST /tasks/:id/turns/:n/usage` through the real Worker and Task object, with usage blocks
 * as the vendors' own SDKs hand them out: the Anthropic and OpenAI clients parse a captured
 * response (served by a custom `fetch`), and their `usage` is what is posted.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { env, exports } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { toAnthropic } from '../../src/context/formats/anthropic.ts';
import { toOpenAIChat } from '../../src/context/formats/openai-chat.ts';
import { toOpenAIResponses } from '../../src/context/formats/openai-responses.ts';
import { promptFromTurn } from '../../src/context/formats/prompt.ts';
import { migrate, SCHEMA_VERSION } from '../../durable-objects/task-schema.ts';
import * as callModel from '../../examples/call-model.ts';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { MAX_TOKENS, MAX_USAGE_BYTES } from '../../src/tasks/turn-usage.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';

const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

async function readyTask(): Promise<string> {
  const res = await api('POST', '/tasks', { body: { repo: `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`, request: 'Explain the build.' } });
  const id = String(res.json['id']);
  await waitForTask(id, settled);
  return id;
}

/** Responses as the APIs sent them (trimmed of nothing the SDKs need), usage blocks in full. */
const CAPTURED = {
  anthropic: {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: [{ type: 'text', text: 'The build runs `npm run build`.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 21,
      cache_creation_input_tokens: 188,
      cache_read_input_tokens: 1_650,
      cache_creation: { ephemeral_5m_input_tokens: 188, ephemeral_1h_input_tokens: 0 },
      output_tokens: 96,
      service_tier: 'standard',
      server_tool_use: null,
      inference_geo: 'us',
    },
  },
  responses: {
    id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
    object: 'response',
    created_at: 1741476542,
    status: 'completed',
    model: 'gpt-5-2025-08-07',
    output: [{ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'npm run build.', annotations: [] }] }],
    usage: { input_tokens: 1_859, input_tokens_details: { cached_tokens: 1_536 }, output_tokens: 302, output_tokens_details: { reasoning_tokens: 256 }, total_tokens: 2_161 },
  },
  chat: {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741570283,
    model: 'gpt-5-mini-2025-08-07',
    choices: [{ index: 0, message: { role: 'assistant', content: 'npm run build.', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 1_859,
      completion_tokens: 40,
      total_tokens: 1_899,
      prompt_tokens_details: { cached_tokens: 1_792, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
  },
};

/** A `fetch` for the SDK clients that answers every request with `body`, as the API would. */
const answering = (body: unknown): typeof fetch => async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } });

async function requestOf(id: string) {
  const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
  return promptFromTurn(turn);
}

const postUsage = (id: string, turn: number | string, body: unknown, tenant: 'acme' | 'globex' = 'acme') => api('POST', `/tasks/${id}/turns/${turn}/usage`, { body, tenant });

describe('POST /tasks/:id/turns/:n/usage with what the vendor SDKs return', () => {
  it('records an Anthropic Messages usage block: input is the uncached, read and written tokens together', async () => {
    const id = await readyTask();
    const body = toAnthropic(await requestOf(id));
    const message = await new Anthropic({ apiKey: 'test', fetch: answering(CAPTURED.anthropic) }).messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, ...body });

    const res = await postUsage(id, 0, { format: 'anthropic', model: message.model, usage: message.usage });
    expect(res.status).toBe(201);
    expect(res.json['usage']).toMatchObject({ format: 'anthropic', model: 'claude-sonnet-4-5-20250929', inputTokens: 1_859, cachedTokens: 1_650, cacheWriteTokens: 188, outputTokens: 96 });
    expect(res.json['duplicate']).toBe(false);
    // Fields the inspector does not use are not kept.
    expect(JSON.stringify(res.json['usage'])).not.toContain('inference_geo');

    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns[0]?.usage).toMatchObject({ inputTokens: 1_859, cachedTokens: 1_650 });
  });

  it('records an OpenAI Responses usage block and a Chat Completions one, cached tokens inside the input', async () => {
    const id = await readyTask();
    const client = (body: unknown) => new OpenAI({ apiKey: 'test', fetch: answering(body) });
    const response = await client(CAPTURED.responses).responses.create({ model: 'gpt-5', ...toOpenAIResponses(await requestOf(id)) });
    const first = await postUsage(id, 0, { format: 'openai-responses', model: response.model, usage: response.usage });
    expect(first.status).toBe(201);
    expect(first.json['usage']).toMatchObject({ format: 'openai-responses', inputTokens: 1_859, cachedTokens: 1_536, cacheWriteTokens: null, outputTokens: 302 });

    await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ type: 'message', id: 'answer-0', role: 'assistant', content: 'npm run build.' }] } });
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } })).status).toBe(200);
    const completion = await client(CAPTURED.chat).chat.completions.create({ model: 'gpt-5-mini', ...toOpenAIChat(await requestOf(id)) });
    const second = await postUsage(id, 1, { format: 'openai-chat', model: completion.model, usage: completion.usage });
    expect(second.status).toBe(201);
    expect(second.json['usage']).toMatchObject({ format: 'openai-chat', inputTokens: 1_859, cachedTokens: 1_792, cacheWriteTokens: null, outputTokens: 40 });

    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns.map((turn) => turn.usage?.format)).toEqual(['openai-responses', 'openai-chat']);
  });

  it('is idempotent per turn: the same report again is the recorded one, a different one is a conflict', async () => {
    const id = await readyTask();
    const report = { format: 'anthropic', usage: CAPTURED.anthropic.usage };
    const first = await postUsage(id, 0, report);
    const again = await postUsage(id, 0, report);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.json).toEqual({ usage: first.json['usage'], duplicate: true });

    const other = await postUsage(id, 0, { format: 'anthropic', usage: { ...CAPTURED.anthropic.usage, output_tokens: 97 } });
    expect(other.status).toBe(409);
    expect(other.json.error?.message).toMatch(/^turn 0 already has usage reported at .+ \(1859 input tokens, 1650 cached\); a turn's request has one answer$/);
    const rows = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM usage').one());
    expect(rows['n']).toBe(1);
  });
});

describe('examples/call-model.ts', () => {
  it('reads a turn, sends it with the vendor SDK, and posts the usage the vendor answered back to the turn', async () => {
    const id = await readyTask();
    // The Worker itself stands in for the deployment, and a captured answer for the vendor.
    const groundwork = { base: 'http://groundwork.test', token: TEST_API_TOKENS.acme, fetch: (input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(input, init) };
    const request = await callModel.readTurnRequest(groundwork, id, 0, 'openai-chat');
    const reply = await callModel.sendRequest(request, { apiKey: 'test', model: callModel.DEFAULT_MODELS.openai, fetch: answering(CAPTURED.chat) });
    const recorded = await callModel.postUsage(groundwork, id, 0, reply);
    expect(recorded).toMatchObject({ duplicate: false, usage: { format: 'openai-chat', model: 'gpt-5-mini-2025-08-07', inputTokens: 1_859, cachedTokens: 1_792 } });
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns[0]?.usage).toMatchObject({ inputTokens: 1_859, cachedTokens: 1_792 });
  });
});

describe('a task stored before usage was recorded', () => {
  it('gains the usage table when its object starts, and takes a report', async () => {
    const id = await readyTask();
    await runInDurableObject(stubOf(id), (_, state) => {
      const sql = state.storage.sql;
      sql.exec('DROP TABLE usage');
      // Usage is migration 6: a task stored before it was at schema version 5 (later steps run again, idempotently).
      sql.exec(`UPDATE meta SET value = '5' WHERE key = 'schema_version'`);
      migrate(sql);
      expect(sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").one()['value']).toBe(String(SCHEMA_VERSION));
    });
    const res = await postUsage(id, 0, { format: 'anthropic', usage: { input_tokens: 5, output_tokens: 1 } });
    expect([res.status, res.json['usage']]).toEqual([201, expect.objectContaining({ inputTokens: 5, cachedTokens: 0, cacheWriteTokens: null })]);
  });
});

describe('POST /tasks/:id/turns/:n/usage refuses what is not a usage report', () => {
  const cases: Array<[string, unknown, string]> = [
    ['no format', { usage: { input_tokens: 1, output_tokens: 1 } }, 'format: must be one of anthropic, openai-responses, openai-chat'],
    ['an unknown format', { format: 'gemini', usage: {} }, 'format: must be one of anthropic, openai-responses, openai-chat'],
    ['another vendor’s shape', { format: 'openai-chat', usage: CAPTURED.anthropic.usage }, 'usage.prompt_tokens: Invalid input: expected number, received undefined'],
    ['a negative count', { format: 'anthropic', usage: { input_tokens: -1, output_tokens: 1 } }, 'usage.input_tokens: Too small: expected number to be >=0'],
    ['a fraction', { format: 'anthropic', usage: { input_tokens: 1.5, output_tokens: 1 } }, 'usage.input_tokens: must be a whole number'],
    ['a count past any window', { format: 'openai-responses', usage: { input_tokens: MAX_TOKENS + 1, output_tokens: 0 } }, `usage.input_tokens: must be at most ${MAX_TOKENS}`],
    [
      'more cached than input',
      { format: 'openai-responses', usage: { input_tokens: 10, output_tokens: 0, input_tokens_details: { cached_tokens: 11 } } },
      'usage.input_tokens_details.cached_tokens: counts more cached tokens than input_tokens, which includes them',
    ],
    [
      'more cached than prompt',
      { format: 'openai-chat', usage: { prompt_tokens: 10, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 11 } } },
      'usage.prompt_tokens_details.cached_tokens: counts more cached tokens than prompt_tokens, which includes them',
    ],
    ['an unknown field', { format: 'anthropic', usage: { input_tokens: 1, output_tokens: 1 }, cost: 3 }, '(root): Unrecognized key: "cost"'],
    ['a model with a control character', { format: 'anthropic', model: 'claude\u0000', usage: { input_tokens: 1, output_tokens: 1 } }, 'model: no control characters'],
  ];

  it.each(cases)('refuses %s with a 400 naming the field, and records nothing', async (_name, body, message) => {
    const id = await readyTask();
    const res = await postUsage(id, 0, body);
    expect([res.status, res.json.error?.code, res.json.error?.message]).toEqual([400, 'bad_request', message]);
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns[0]?.usage).toBeUndefined();
  });

  it('refuses a turn that has not begun (409), a turn number that is not one (400), a body past its cap (413), another tenant (404)', async () => {
    const id = await readyTask();
    const report = { format: 'anthropic', usage: { input_tokens: 1, output_tokens: 1 } };
    const early = await postUsage(id, 3, report);
    expect([early.status, early.json.error?.message]).toEqual([409, 'turn 3 has not begun; report usage for a turn whose request was sent']);
    const odd = await postUsage(id, '01', report);
    expect([odd.status, odd.json.error?.message]).toEqual([400, 'n: must be a whole number in plain decimal, e.g. 0 or 12']);
    const big = await postUsage(id, 0, { ...report, model: 'x'.repeat(MAX_USAGE_BYTES) });
    expect([big.status, big.json.error?.code]).toEqual([413, 'payload_too_large']);
    const stranger = await postUsage(id, 0, report, 'globex');
    expect(stranger.status).toBe(404);
    const wrongMethod = await api('GET', `/tasks/${id}/turns/0/usage`);
    expect([wrongMethod.status, wrongMethod.json.error?.code]).toEqual([405, 'method_not_allowed']);
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.turns[0]?.usage).toBeUndefined();
  });
});
