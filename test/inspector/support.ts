/**
 * @module test/inspector/support
 * Opening inspector pages through the real Worker entry, as a browser would (no token, a signed
 * link) or as an API client would (a bearer token), and reading what a person would see.
 */
import { expect, inject } from 'vitest';
import { api, checkedFetch, settled, waitForTask, type Tenant } from '../support/api.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';

export const sampleRepo = () => `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`;

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

/** GET of a page path (or a full URL the API handed out), with a bearer token when `tenant` is given. */
export async function openPage(pathOrUrl: string, options: { tenant?: Tenant; token?: string } = {}): Promise<Page> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `http://groundwork.test${pathOrUrl}`;
  const token = options.token ?? (options.tenant ? TEST_API_TOKENS[options.tenant] : undefined);
  const res = await checkedFetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Creates a REST task as `tenant`, waits until assembly ends, and returns its id and signed link. */
export async function readyTask(body: Record<string, unknown> = {}, tenant: Tenant = 'acme'): Promise<{ id: string; viewUrl: string }> {
  const created = await api('POST', '/tasks', { tenant, body: { repo: sampleRepo(), request: 'Explain the build.', ...body } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  await waitForTask(id, settled);
  const viewUrl = created.json['viewUrl'];
  expect(typeof viewUrl).toBe('string');
  return { id, viewUrl: String(viewUrl) };
}

/** The text of an element's markup with tags removed, entities as a browser decodes the few JSX writes. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
