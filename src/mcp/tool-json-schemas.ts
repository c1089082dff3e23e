/**
 * @module mcp/tool-json-schemas
 * Every tool's input and output schema as JSON Schema, made from the zod schemas by `npm run
 * build` (scripts/build.ts) into mcp/tool-schemas.json, which `tools/list` answers with
 * (mcp/tool-schemas, mcp/tool-methods). Made at build time so the Worker's upload carries no JSON Schema converter:
 * zod's classic schemas import it for their `.toJSONSchema()` method, so the Worker build puts a
 * stand-in there (scripts/worker-build), about 6.6 KiB gzipped against 2.7 for the JSON.
 * test/node/tool-json-schemas.test.ts holds the file to what these functions make.
 *
 * One part depends on the day: `remember`'s `reviewBy` default (today + 90 days), which
 * mcp/tool-schemas puts in at run time.
 */
import * as z from 'zod';
import { outputSchema } from './tool-outputs.ts';
import { TOOLS, type ToolName } from './tools.ts';

export interface ToolJsonSchemas {
  /** JSON Schema draft 7, the input side of the schema calls are validated with. */
  input: Record<string, unknown>;
  /** JSON Schema 2020-12 with `type: "object"` at its root (mcp/tool-outputs). */
  output: Record<string, unknown>;
}

/** The date the file's `remember` schema is made for; its `reviewBy` default is replaced when served. */
export const SCHEMA_DAY = '2000-01-01';

export function toolJsonSchemas(today = SCHEMA_DAY): Record<ToolName, ToolJsonSchemas> {
  const names = Object.keys(TOOLS) as ToolName[];
  return Object.fromEntries(names.map((name) => [name, { input: inputJsonSchema(name, today), output: outputSchema(name) }])) as Record<ToolName, ToolJsonSchemas>;
}

function inputJsonSchema(name: ToolName, today: string): Record<string, unknown> {
  const schema = TOOLS[name].input(today);
  return z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}

/** The text of mcp/tool-schemas.json. */
export function toolSchemasText(): string {
  return `${JSON.stringify(toolJsonSchemas(), null, 2)}\n`;
}
