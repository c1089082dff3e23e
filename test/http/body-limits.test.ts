import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';
import { api, checkedFetch, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const MIB = 1024 * 1024;

async function readyTask(): Promise<string> {
  const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.' } });
  const id = String(created.json['id']);
  await waitForTask(id, settled);
  return id;
}

async function transcriptRows(id: string): Promise<number> {
  const stub = env.TASKS.get(env.TASKS.idFromString(id));
  const row = await runInDurableObject(stub, (_, state) => state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM transcript').one());
  return row.n;
}

/** A body that never ends; `pulled` counts what the Worker read of it. */
function endless(chunkBytes = 64 * 1024): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const chunk = new Uint8Array(chunkBytes).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

interface BodyRoute {
  name: string;
  method?: 'POST' | 'PATCH';
  path: (task: string) => string;
  headers: Record<string, string>;
  cap: number;
}

const ROUTES: BodyRoute[] = [
  { name: 'POST /tasks', path: () => '/tasks', headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  { name: 'POST /tasks/:id/turns', path: (id) => `/tasks/${id}/turns`, headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  { name: 'POST /tasks/:id/transcript', path: (id) => `/tasks/${id}/transcript`, headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  { name: 'POST /tasks/:id/knowledge', path: (id) => `/tasks/${id}/knowledge`, headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  { name: 'POST /knowledge', path: () => '/knowledge', headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  { name: 'PATCH /knowledge/:id', method: 'PATCH', path: () => '/knowledge/k1', headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  { name: 'POST /knowledge/:id/retire', path: () => '/knowledge/k1/retire', headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_TOKENS.acme}` }, cap: MIB },
  {
    name: 'POST /webhooks/github',
    path: () => '/webhooks/github',
    headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': crypto.randomUUID(), 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    cap: 25 * MIB,
  },
  { name: 'POST /slack/commands', path: () => '/slack/commands', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': '1', 'x-slack-signature': 'v0=00' }, cap: 64 * 1024 },
];

describe('request body limits count bytes', () => {
  let task = '';
  beforeAll(async () => {
    task = await readyTask();
  });

  it('refuses a transcript body of € that is under the cap in characters but three times over it in bytes, storing nothing', async () => {
    const id = await readyTask();
    const content = '€'.repeat(340_000);
    const items = [0, 1, 2].map((i) => ({ id: `euro-${i}`, type: 'message', role: 'assistant', content }));
    const body = JSON.stringify({ items });
    expect(body.length).toBeLessThan(MIB);
    expect(new TextEncoder().encode(body).byteLength).toBeGreaterThan(3 * 1_000_000);

    const res = await api('POST', `/tasks/${id}/transcript`, { body });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatchObject({ code: 'payload_too_large', message: `body exceeds ${MIB} bytes` });
    expect(await transcriptRows(id)).toBe(1);
  });

  it('reads a body of exactly the cap and validates it', async () => {
    const id = await readyTask();
    const prefix = '{"items":[{"id":"full","type":"message","role":"assistant","content":"';
    const suffix = '"}]}';
    const body = prefix + 'a'.repeat(MIB - prefix.length - suffix.length) + suffix;
    const res = await api('POST', `/tasks/${id}/transcript`, { body });
    // The content is over the item cap, so the body was read and parsed: a 400 naming the field, not a 413.
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toMatch(/^items\[0\]\.content: /);
  });

  it.each(ROUTES)('$name refuses a declared Content-Length over its cap without reading the body', async (route) => {
    const id = task;
    const body = endless();
    const res = await checkedFetch(`http://groundwork.test${route.path(id)}`, {
      method: route.method ?? 'POST',
      headers: { ...route.headers, 'content-length': String(route.cap + 1) },
      body: body.stream,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'payload_too_large', message: `body exceeds ${route.cap} bytes` } });
    expect(body.pulled()).toBeLessThanOrEqual(128 * 1024);
  });

  it.each(ROUTES)('$name stops reading an undeclared body as soon as it passes its cap', async (route) => {
    const id = task;
    const body = endless();
    const res = await checkedFetch(`http://groundwork.test${route.path(id)}`, { method: route.method ?? 'POST', headers: route.headers, body: body.stream });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'payload_too_large', message: `body exceeds ${route.cap} bytes` } });
    expect(body.pulled()).toBeLessThan(route.cap + MIB);
    expect(await transcriptRows(id)).toBe(1);
  });

  it.each(ROUTES)('$name stops reading a body longer than the Content-Length it declared under its cap', async (route) => {
    const id = task;
    const body = endless();
    const res = await checkedFetch(`http://groundwork.test${route.path(id)}`, {
      method: route.method ?? 'POST',
      headers: { ...route.headers, 'content-length': '16' },
      body: body.stream,
    });
    // workerd does not hold a body to the length it declares, so a read that trusted the header
    // (one arrayBuffer() after checking it) never ends; the cap is what stops it.
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThan(route.cap + MIB);
    expect(await transcriptRows(id)).toBe(1);
  });
});
