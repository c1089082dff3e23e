/**
 * @module context/digest
 * `sha256:<64 hex>` over the canonical rendered context and the effective settings it was made
 * with. Canonical = `JSON.stringify` of the rendered messages and tools, built in a fixed key
 * order by the renderer, and of the settings in registry order with each config in its schema's
 * key order; durations and other wall-clock facts are never part of it.
 */
import { sha256Hex } from '../lib/sha256.ts';
import type { RenderedRequest } from './render.ts';
import type { SettingsReport } from './settings/report.ts';
import { effectiveSettings } from './settings/report.ts';

export async function digestRequest(request: RenderedRequest, settings: SettingsReport): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify({ messages: request.messages, tools: request.tools, settings: effectiveSettings(settings) }))}`;
}

/** A later turn's context item. */
export async function digestContext(content: string, settings: SettingsReport): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify({ context: content, settings: effectiveSettings(settings) }))}`;
}
