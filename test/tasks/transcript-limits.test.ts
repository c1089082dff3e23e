import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { MAX_ITEM_BYTES, MAX_TRANSCRIPT_BYTES } from '../../src/tasks/transcript.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

async function readyTask(): Promise<string> {
  const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.' } });
  const id = String(created.json['id']);
  await waitForTask(id, settled);
  return id;
}

async function storedItems(id: string): Promise<string[]> {
  const stub = env.TASKS.get(env.TASKS.idFromString(id));
  return runInDurableObject(stub, (_, state) => state.storage.sql.exec<{ item_id: string }>('SELECT item_id FROM transcript ORDER BY seq').toArray().map((row) => row.item_id));
}

const item = (id: string, content: string) => ({ id, type: 'message', role: 'assistant', content });

describe('transcript caps keep every turn readable', () => {
  it('refuses an item whose content is over the item cap in bytes, though not in characters', async () => {
    const id = await readyTask();
    const content = '€'.repeat(Math.floor(MAX_ITEM_BYTES / 3) + 1);
    expect(content.length).toBeLessThan(MAX_ITEM_BYTES);
    const res = await api('POST', `/tasks/${id}/transcript`, { body: { items: [item('euro', content)] } });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe(`items[0].content: is ${content.length * 3} bytes (UTF-8); an item's content may hold at most ${MAX_ITEM_BYTES}`);
    expect(await storedItems(id)).toEqual(['local:task']);
  });

  it('refuses a tool call whose arguments are over the item cap in bytes, naming the field', async () => {
    const id = await readyTask();
    // Under the body cap of 1 MiB, over the item cap of 1,000,000 bytes.
    const call = { id: 'call', type: 'tool_call', name: 'read_file', callId: 'toolu_1', arguments: { path: 'a'.repeat(MAX_ITEM_BYTES) } };
    const res = await api('POST', `/tasks/${id}/transcript`, { body: { items: [call] } });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toMatch(/^items\[0\]\.arguments: is \d+ bytes \(UTF-8\); a tool call's arguments \(as JSON\) may hold at most 1000000$/);
    expect(await storedItems(id)).toEqual(['local:task']);
  });

  it('answers 413 for an append past the transcript cap, stores none of it, and every turn stays readable', async () => {
    const id = await readyTask();
    const big = 'x'.repeat(MAX_ITEM_BYTES - 1_000);
    const fits = Math.floor(MAX_TRANSCRIPT_BYTES / MAX_ITEM_BYTES);
    for (let i = 0; i < fits; i++) {
      const res = await api('POST', `/tasks/${id}/transcript`, { body: { items: [item(`big-${i}`, big)] } });
      expect(res.status, `append ${i}`).toBe(200);
    }

    const over = await api('POST', `/tasks/${id}/transcript`, { body: { items: [item('small', 'fits alone'), item('over', big)] } });
    expect(over.status).toBe(413);
    expect(over.json.error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining(`over its cap of ${MAX_TRANSCRIPT_BYTES} bytes; nothing was appended`) });
    const kept = ['local:task', ...Array.from({ length: fits }, (_, i) => `big-${i}`)];
    expect(await storedItems(id)).toEqual(kept);

    // A retry of a batch that was accepted is answered as duplicates, never as too large.
    const retry = await api('POST', `/tasks/${id}/transcript`, { body: { items: [item('big-0', big)] } });
    expect(retry.json).toEqual({ appended: [], duplicates: ['big-0'] });

    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } })).status).toBe(200);
    for (const n of [0, 1]) {
      const res = await api('GET', `/tasks/${id}/turns/${n}`);
      expect(res.status, `turn ${n}`).toBe(200);
      expect(AssembledTurnSchema.parse(res.json).messages.length).toBe(n === 0 ? 4 : 4 + fits);
    }
  });

  it('begins no new turn once host items have taken the transcript to its cap', async () => {
    const id = await readyTask();
    const stub = env.TASKS.get(env.TASKS.idFromString(id));
    // Host context items are appended without the client cap; stand in for a long run of them.
    const filler = { id: 'local:context:filler', type: 'context', role: 'user', content: 'h'.repeat(MAX_TRANSCRIPT_BYTES) };
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec("INSERT INTO transcript (item_id, turn, item) VALUES ('local:context:filler', 0, ?)", JSON.stringify(filler));
    });
    const res = await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });
    expect(res.status).toBe(409);
    expect(res.json.error?.message).toBe(`the transcript holds its cap of ${MAX_TRANSCRIPT_BYTES} bytes; turn 1 cannot begin (start a new task with parentTaskId to continue)`);
    expect((await api('GET', `/tasks/${id}`)).json['turns']).toHaveLength(1);
  });
});
