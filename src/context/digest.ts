/**
 * @module context/digest
 * `sha256:<64 hex>` over the canonical rendered context. Canonical = `JSON.stringify` of the
 * rendered messages and tools, built in a fixed key order by the renderer; durations and other
 * wall-clock facts are never part of it.
 */
import type { RenderedRequest } from './render.ts';

export async function sha256Hex(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function digestRequest(request: RenderedRequest): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify({ messages: request.messages, tools: request.tools }))}`;
}

export async function digestText(text: string): Promise<string> {
  return `sha256:${await sha256Hex(text)}`;
}
