/**
 * @module context/tool-input-schema
 * A tool's `input_schema` as the vendors take it: a JSON Schema whose top is `type: "object"`
 * (Anthropic's `input_schema`, OpenAI's function `parameters`), bounded in depth and size so a
 * catalog cannot make every request huge or a walk over it deep. The keywords whose shape a
 * vendor checks are checked here too (subschemas are schemas, `required` is a list of names,
 * `type` names JSON types), so a mistake fails at start, naming the field, rather than as a 400
 * from the vendor on every request. Other keywords pass through as written.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

export const INPUT_SCHEMA_LIMITS = { maxDepth: 24, maxBytes: 32_768 } as const;

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = ['additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
/** Keywords whose value is an object of named schemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const STRING_KEYWORDS = ['description', 'title', '$ref', 'pattern', 'format', '$id', '$schema'];

type Issue = { path: Array<string | number>; message: string };

export const ToolInputSchemaSchema = lazySchema(() => z
  .looseObject({ type: z.literal('object', { error: 'must be "object": vendors take a tool\'s arguments as one JSON object' }) })
  .superRefine((schema, ctx) => {
    for (const issue of inputSchemaIssues(schema)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }));

/** What is wrong with `schema` as a tool's input schema, each with the path to it; `[]` when nothing is. */
export function inputSchemaIssues(schema: Record<string, unknown>): Issue[] {
  const depth = jsonDepth(schema, INPUT_SCHEMA_LIMITS.maxDepth);
  if (depth > INPUT_SCHEMA_LIMITS.maxDepth) return [{ path: [], message: `nests deeper than ${INPUT_SCHEMA_LIMITS.maxDepth} levels` }];
  const bytes = new TextEncoder().encode(JSON.stringify(schema)).length;
  if (bytes > INPUT_SCHEMA_LIMITS.maxBytes) return [{ path: [], message: `is ${bytes} bytes as JSON, over ${INPUT_SCHEMA_LIMITS.maxBytes}` }];
  const issues: Issue[] = [];
  checkSchema(schema, [], issues);
  return issues;
}

function checkSchema(schema: unknown, path: Array<string | number>, issues: Issue[]): void {
  if (typeof schema === 'boolean') return;
  if (!isObject(schema)) {
    issues.push({ path, message: 'must be a JSON Schema (an object or a boolean)' });
    return;
  }
  const type = schema.type;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (names.length === 0 || names.some((name) => typeof name !== 'string' || !JSON_TYPES.has(name))) {
      issues.push({ path: [...path, 'type'], message: `must name JSON types (${[...JSON_TYPES].join(', ')})` });
    }
  }
  const required = schema.required;
  if (required !== undefined && (!Array.isArray(required) || required.some((name) => typeof name !== 'string') || new Set(required).size !== required.length)) {
    issues.push({ path: [...path, 'required'], message: 'must be a list of distinct property names' });
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) issues.push({ path: [...path, 'enum'], message: 'must be a list of values' });
  for (const keyword of STRING_KEYWORDS) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'string') issues.push({ path: [...path, keyword], message: 'must be a string' });
  }
  for (const keyword of SCHEMA_KEYWORDS) if (schema[keyword] !== undefined) checkSchema(schema[keyword], [...path, keyword], issues);
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (map === undefined) continue;
    if (!isObject(map)) issues.push({ path: [...path, keyword], message: 'must be an object of named schemas' });
    else for (const [name, sub] of Object.entries(map)) checkSchema(sub, [...path, keyword, name], issues);
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = schema[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) issues.push({ path: [...path, keyword], message: 'must be a non-empty list of schemas' });
    else list.forEach((sub, index) => checkSchema(sub, [...path, keyword, index], issues));
  }
  const items = schema.items;
  if (Array.isArray(items)) items.forEach((sub, index) => checkSchema(sub, [...path, 'items', index], issues));
  else if (items !== undefined) checkSchema(items, [...path, 'items'], issues);
}

/** Nesting depth of objects and arrays, counted without recursion and no further than `limit + 1`. */
function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const next = stack.pop();
    if (!next || typeof next.value !== 'object' || next.value === null) continue;
    deepest = Math.max(deepest, next.depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(next.value)) stack.push({ value: child, depth: next.depth + 1 });
  }
  return deepest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
