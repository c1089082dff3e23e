import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { migrate } from '../../durable-objects/task-schema.ts';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { HOST_ITEM_PREFIX } from '../../src/context/transcript.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

async function readyTask(request = 'Explain the build.'): Promise<string> {
  const res = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request } });
  const id = String(res.json['id']);
  await waitForTask(id, settled);
  return id;
}

async function rowCount(id: string): Promise<number> {
  const row = await runInDurableObject(stubOf(id), (_, state) => state.storage.sql.exec('SELECT COUNT(*) AS n FROM transcript').one());
  return Number(row['n']);
}

/** A model reply with two tool calls, and the host's results (one failed). */
const EXCHANGE = [
  { id: 'a1', type: 'message', role: 'assistant', content: 'Reading two files.' },
  { id: 'a1-c1', type: 'tool_call', name: 'read_file', callId: 'toolu_01', arguments: { path: 'Makefile' } },
  { id: 'a1-c2', type: 'tool_call', name: 'read_file', callId: 'toolu_02', arguments: { path: 'missing.txt', options: { lines: [1, 2] } } },
  { id: 'r1', type: 'tool_result', callId: 'toolu_01', name: 'read_file', content: 'all: build' },
  { id: 'r2', type: 'tool_result', callId: 'toolu_02', content: 'no such file', isError: true },
];

describe('a faithful transcript through the API', () => {
  it('returns appended tool calls and results with their structure, and round-trips them into another task without loss', async () => {
    const first = await readyTask();
    expect((await api('POST', `/tasks/${first}/transcript`, { body: { items: EXCHANGE } })).status).toBe(200);
    await api('POST', `/tasks/${first}/turns`, { body: { turn: 1 } });
    const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${first}/turns/1`)).json);
    expect(turn.items.map((item) => item.id)).toEqual(['local:task', 'a1', 'a1-c1', 'a1-c2', 'r1', 'r2']);
    expect(turn.items[3]).toEqual({ id: 'a1-c2', type: 'tool_call', role: 'assistant', name: 'read_file', callId: 'toolu_02', arguments: { path: 'missing.txt', options: { lines: [1, 2] } } });
    expect(turn.items[5]).toEqual({ id: 'r2', type: 'tool_result', role: 'tool', callId: 'toolu_02', content: 'no such file', isError: true });
    // The messages view stays as clients knew it.
    expect(turn.messages.slice(4).map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Reading two files.'],
      ['assistant', '{"path":"Makefile"}'],
      ['assistant', '{"path":"missing.txt","options":{"lines":[1,2]}}'],
      ['tool', 'all: build'],
      ['tool', 'no such file'],
    ]);

    const second = await readyTask('Another task.');
    const clientItems = turn.items.filter((item) => !item.id.startsWith(HOST_ITEM_PREFIX));
    expect((await api('POST', `/tasks/${second}/transcript`, { body: { items: clientItems } })).json).toEqual({ appended: ['a1', 'a1-c1', 'a1-c2', 'r1', 'r2'], duplicates: [] });
    await api('POST', `/tasks/${second}/turns`, { body: { turn: 1 } });
    const copied = AssembledTurnSchema.parse((await api('GET', `/tasks/${second}/turns/1`)).json);
    expect(copied.items.filter((item) => !item.id.startsWith(HOST_ITEM_PREFIX))).toEqual(clientItems);
  });

  it('refuses a whole batch whose tool result answers no call, naming the item, and stores none of it', async () => {
    const id = await readyTask();
    const before = await rowCount(id);
    const res = await api('POST', `/tasks/${id}/transcript`, {
      body: { items: [EXCHANGE[0], EXCHANGE[1], { id: 'stray', type: 'tool_result', callId: 'toolu_99', content: 'x' }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', message: 'items[2].callId: no earlier tool_call has callId "toolu_99"' });
    expect(await rowCount(id)).toBe(before);
  });

  it('refuses a second result for one call across batches, and accepts a retried batch as duplicates', async () => {
    const id = await readyTask();
    await api('POST', `/tasks/${id}/transcript`, { body: { items: EXCHANGE } });
    expect((await api('POST', `/tasks/${id}/transcript`, { body: { items: EXCHANGE } })).json).toEqual({ appended: [], duplicates: EXCHANGE.map((item) => item.id) });
    const again = await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ id: 'r1-again', type: 'tool_result', callId: 'toolu_01', content: 'x' }] } });
    expect(again.status).toBe(400);
    expect(again.json.error?.message).toBe('items[0].callId: the call "toolu_01" is already answered by item "r1"');
  });

  it('refuses the old shape of a tool call, naming arguments', async () => {
    const id = await readyTask();
    const res = await api('POST', `/tasks/${id}/transcript`, {
      body: { items: [{ id: 'c', type: 'tool_call', role: 'assistant', content: '{"path":"Makefile"}', name: 'read_file', callId: 'c1' }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toMatch(/^items\[0\]\.arguments: required: the tool input as a JSON object/);
  });
});

describe('GET /tasks/:id/turns/:n?format=', () => {
  it('returns a request body in each format, with the transcript paired as the vendor expects', async () => {
    const id = await readyTask();
    await api('POST', `/tasks/${id}/transcript`, { body: { items: EXCHANGE } });
    await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });

    const anthropic = await api('GET', `/tasks/${id}/turns/1?format=anthropic`);
    expect(anthropic.status).toBe(200);
    const messages = anthropic.json['messages'] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content.map((b) => b['type'])).toEqual(['text', 'tool_use', 'tool_use']);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01', content: 'all: build' },
      { type: 'tool_result', tool_use_id: 'toolu_02', content: 'no such file', is_error: true, cache_control: { type: 'ephemeral' } },
    ]);
    expect(anthropic.json).not.toHaveProperty('model');

    const responses = await api('GET', `/tasks/${id}/turns/1?format=openai-responses`);
    expect(responses.json['prompt_cache_key']).toMatch(/^groundwork-[0-9a-f]{32}$/);
    expect((responses.json['input'] as Array<Record<string, unknown>>).map((item) => item['type'])).toEqual([
      'message',
      'message',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
    ]);

    const chat = await api('GET', `/tasks/${id}/turns/1?format=openai-chat`);
    const chatMessages = chat.json['messages'] as Array<Record<string, unknown>>;
    expect(chatMessages.map((m) => m['role'])).toEqual(['system', 'system', 'system', 'user', 'assistant', 'tool', 'tool']);
    expect(chatMessages.slice(5).map((m) => m['tool_call_id'])).toEqual(['toolu_01', 'toolu_02']);
  });

  it('gives every task of one agent on one commit the same cache key', async () => {
    const [a, b] = [await readyTask('One.'), await readyTask('Two.')];
    const key = async (id: string) => (await api('GET', `/tasks/${id}/turns/0?format=openai-responses`)).json['prompt_cache_key'];
    expect(await key(a)).toBe(await key(b));
  });

  it('refuses an unknown format with 400 naming format, before reading the task', async () => {
    const id = await readyTask();
    const res = await api('GET', `/tasks/${id}/turns/0?format=gemini`);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', message: 'format: must be one of anthropic, openai-responses, openai-chat' });
    expect((await api('GET', `/tasks/${'0'.repeat(64)}/turns/0?format=gemini`)).status).toBe(400);
  });
});

describe('transcripts stored before items were structured', () => {
  it('upgrades old rows when the object migrates, keeping ids and what the model was shown', async () => {
    const id = await readyTask();
    await runInDurableObject(stubOf(id), (_, state) => {
      const sql = state.storage.sql;
      const legacy = [
        { id: 'old-call', type: 'tool_call', role: 'assistant', content: '{"path":"Makefile"}', name: 'read_file', callId: 'c1' },
        { id: 'old-result', type: 'tool_result', role: 'tool', content: 'all: build', name: 'read_file', callId: 'c1' },
        { id: 'old-free', type: 'tool_call', role: 'assistant', content: 'not json', name: 'read_file' },
        { id: 'old-stray', type: 'tool_result', role: 'tool', content: 'orphan', callId: 'nobody' },
        { id: 'old-tool-message', type: 'message', role: 'tool', content: 'from a tool' },
      ];
      for (const item of legacy) sql.exec('INSERT INTO transcript (item_id, turn, item) VALUES (?, 0, ?)', item.id, JSON.stringify(item));
      sql.exec("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
      migrate(sql);
    });
    await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });
    const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/1`)).json);
    expect(turn.items.slice(1)).toEqual([
      { id: 'old-call', type: 'tool_call', role: 'assistant', name: 'read_file', callId: 'c1', arguments: { path: 'Makefile' } },
      { id: 'old-result', type: 'tool_result', role: 'tool', callId: 'c1', name: 'read_file', content: 'all: build', isError: false },
      { id: 'old-free', type: 'message', role: 'assistant', content: 'not json' },
      { id: 'old-stray', type: 'message', role: 'user', content: 'orphan' },
      { id: 'old-tool-message', type: 'message', role: 'user', content: 'from a tool' },
    ]);
    expect((await api('GET', `/tasks/${id}/turns/1?format=anthropic`)).status).toBe(200);
  });
});
