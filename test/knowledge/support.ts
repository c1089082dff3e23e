/**
 * @module test/knowledge/support
 * Knowledge through the real Worker entry: create, read and age objects in their real scope
 * Durable Objects.
 */
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import { KNOWLEDGE_ID, KnowledgeSchema, type Knowledge } from '../../src/context/knowledge.ts';
import { addDays, utcDate } from '../../src/lib/utc-date.ts';
import { api, type Tenant } from '../support/api.ts';

export const today = () => utcDate(Date.now());
export const daysFromToday = (days: number) => addDays(today(), days);

export async function remember(body: Record<string, unknown>, tenant: Tenant = 'acme'): Promise<Knowledge> {
  const res = await api('POST', '/knowledge', { tenant, body: { kind: 'fact', source: { uri: 'https://wiki.example.test/page' }, ...body } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return KnowledgeSchema.parse(res.json);
}

/** The scope object that holds `id`, addressed as the Worker addresses it. */
export function scopeStubOf(id: string) {
  const hex = KNOWLEDGE_ID.exec(id)?.[1] ?? '';
  return env.KNOWLEDGE.get(env.KNOWLEDGE.idFromString(hex));
}

/**
 * Moves a stored object's review date, as time passing would: tests cannot wait 90 days. It
 * counts as a write (the generation), so the object's parsed rows are read again.
 */
export async function setReviewDate(id: string, reviewBy: string): Promise<void> {
  await runInDurableObject(scopeStubOf(id), async (_instance, state) => {
    state.storage.sql.exec("UPDATE knowledge SET review_by = ?, record = json_set(record, '$.reviewBy', ?) WHERE id = ?", reviewBy, reviewBy, id);
    state.storage.sql.exec("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'");
  });
}

/** Every current version of `repo` for `tenant`, following cursors. */
export async function listAll(repo: string, status?: string, tenant: Tenant = 'acme', limit = 200): Promise<Knowledge[]> {
  const items: Knowledge[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ repo, limit: String(limit), ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
    const res = await api('GET', `/knowledge?${query}`, { tenant });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    items.push(...KnowledgeSchema.array().parse(res.json['items']));
    cursor = (res.json['nextCursor'] as string | null) ?? null;
  } while (cursor);
  return items;
}
