/**
 * Calls the real Worker entry (`exports.default.fetch`) as an API client would. Every response is
 * checked against the OpenAPI document (contract.ts) before the test sees it.
 */
import { exports } from 'cloudflare:workers';
import { TEST_API_TOKENS } from './api-tokens.ts';
import { checkedResponse } from './contract.ts';
import { caughtUp } from './task-caught-up.ts';

/** `exports.default.fetch`, with the response checked against docs/openapi.json. */
export async function checkedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return checkedResponse(init.method ?? 'GET', url, await exports.default.fetch(url, init));
}

export type Tenant = keyof typeof TEST_API_TOKENS;

/** `origin`: where to call, `http://groundwork.test` by default (API tokens only); the OAuth tests use `https://groundwork.test`. */
export async function api(method: string, path: string, options: { tenant?: Tenant | null; body?: unknown; token?: string; origin?: string } = {}) {
  const headers: Record<string, string> = {};
  const token = options.token ?? (options.tenant === null ? undefined : TEST_API_TOKENS[options.tenant ?? 'acme']);
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const res = await checkedFetch(`${options.origin ?? 'http://groundwork.test'}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const json: unknown = await res.json();
  return { status: res.status, json: json as Record<string, unknown> & { error?: { code: string; message: string; requestId: string } } };
}

/** Just under the workers projects' 30 s test timeout (vitest.config.ts). */
export const SETTLE_GUARD_MS = 25_000;

/**
 * Polls GET /tasks/:id until `done` holds (for a finished task, and it owes nothing: task-caught-up). Creating a task arms an alarm for "now", which the
 * runtime fires by itself, so tests wait for its effect instead of racing it. `timeoutMs` only
 * catches a hang, naming the state the task is stuck in: by default it is nearly all of the test's
 * 30 s, so a loaded machine gets the time the test has rather than a third of it.
 */
export async function waitForTask(id: string, done: (task: { status: string; reason: string | null }) => boolean, timeoutMs = SETTLE_GUARD_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api('GET', `/tasks/${id}`);
    const task = { status: String(res.json['status']), reason: (res.json['reason'] as string | null | undefined) ?? null };
    if (done(task)) {
      // A finished task answers before its report and its index news are sent: tests read those too.
      if (task.status === 'ready' || task.status === 'failed') await caughtUp(id, Math.max(0, deadline - Date.now()));
      return res.json;
    }
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status} (${task.reason ?? 'no reason'}) after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const settled = (task: { status: string; reason: string | null }) => task.status === 'ready' || task.status === 'failed' || task.reason !== null;
