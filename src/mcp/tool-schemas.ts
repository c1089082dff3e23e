/**
 * @module mcp/tool-schemas
 * A tool's input and output JSON Schemas as `tools/list` gives them: mcp/tool-schemas.json, made
 * from the zod schemas at build time (mcp/tool-json-schemas), so no JSON Schema converter runs or
 * ships in the Worker. Only `remember`'s `reviewBy` default depends on the day (90 days after
 * `today`, knowledge/input); it is put in here.
 */
import { DEFAULT_REVIEW_DAYS } from '../knowledge/review.ts';
import { addDays } from '../lib/utc-date.ts';
import TOOL_SCHEMAS from './tool-schemas.json' with { type: 'json' };
import type { ToolName } from './tools.ts';

export function toolSchemas(name: ToolName, today: string): { input: Record<string, unknown>; output: Record<string, unknown> } {
  const { input, output } = TOOL_SCHEMAS[name];
  if (name !== 'remember') return { input, output };
  const { reviewBy, ...properties } = TOOL_SCHEMAS.remember.input.properties;
  return { input: { ...input, properties: { ...properties, reviewBy: { ...reviewBy, default: addDays(today, DEFAULT_REVIEW_DAYS) } } }, output };
}
