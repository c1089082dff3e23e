/**
 * @module context/digest
 * `sha256:<64 hex>` over the canonical rendered context, the effective settings it was made
 * with and the agent configuration's hash (`agentHash`: instructions, tools, providers,
 * capabilities, budget and order policy as the task was shown them). Canonical = `JSON.stringify`
 * of the rendered messages and tools, built in a fixed key order by the renderer, and of the
 * settings in registry order with each config in its schema's key order; durations and other
 * wall-clock facts are never part of it.
 */
import { sha256Hex } from '../lib/sha256.ts';
import type { RenderedRequest } from './render.ts';
import type { SettingsReport } from './settings/report.ts';
import { effectiveSettings } from './settings/report.ts';

export async function digestRequest(request: RenderedRequest, settings: SettingsReport, agent: string): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify({ messages: request.messages, tools: request.tools, settings: effectiveSettings(settings), agent }))}`;
}

/** A later turn's context item. */
export async function digestContext(content: string, settings: SettingsReport, agent: string): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify({ context: content, settings: effectiveSettings(settings), agent }))}`;
}
