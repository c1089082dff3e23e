/**
 * @module context/digest
 * `sha256:<64 hex>` over the canonical rendered context. Canonical = `JSON.stringify` of the
 * rendered messages and tools, built in a fixed key order by the renderer; durations and other
 * wall-clock facts are never part of it.
 */
import { sha256Hex } from '../lib/sha256.ts';
import type { RenderedRequest } from './render.ts';

export async function digestRequest(request: RenderedRequest): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify({ messages: request.messages, tools: request.tools }))}`;
}

export async function digestText(text: string): Promise<string> {
  return `sha256:${await sha256Hex(text)}`;
}
