/**
 * @module mcp/input-schema
 * A tool's `inputSchema` for `tools/list`: the JSON Schema (draft 7, the input side) of its zod
 * schema, converted once per schema. Converting is most of what a `tools/list` costs (about
 * 2 ms of a running local server's CPU per list for the eight tools, issue 56), and a schema
 * never changes once built, so the same schema object gives the same JSON every time. Every
 * answer carries the one object, which nothing changes: answers are serialised as they are.
 */
import * as z from 'zod';

const converted = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

export function inputJsonSchema(schema: z.ZodType): Readonly<Record<string, unknown>> {
  let json = converted.get(schema);
  if (json === undefined) {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
    converted.set(schema, json);
  }
  return json;
}
