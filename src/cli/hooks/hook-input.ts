/**
 * @module cli/hooks/hook-input
 * A hook input as an agent documents it, declared once as data (`HookInputSpec`: its fields'
 * rules and which of them are the facts groundwork reads), and read from it two ways that agree:
 * - by hand (`inputByHand`): an input every field of which keeps its rule gives its facts with
 *   no schema built. Every session start and every prompt pays for the hook's start, and zod's
 *   schema for one input was its largest single piece of work after git: the schema's objects
 *   built, then walked (issue 56);
 * - with zod (`inputSchema`), built from the same rules, for anything the check by hand does not
 *   take: its refusal names the field and says what is wrong, as the notice tells the user.
 * test/node/hook-input holds the two to the same answers over generated inputs.
 */
import * as z from 'zod';
import { describeIssues } from '../../context/zod-issues.ts';
import type { HookFacts } from './protocol.ts';

/** A text field: its bounds in UTF-16 units (zod's string length), each with the refusal's words or zod's own. */
export interface TextRule {
  type: 'text';
  min?: readonly [number, string?];
  max?: readonly [number, string?];
  /** A character the text must not hold, and the refusal's words. */
  without?: readonly [string, string];
  /** `undefined` (the field left out) passes. */
  optional?: boolean;
  /** `null` passes too (Codex sends `transcript_path: null`). */
  nullable?: boolean;
}

export type FieldRule = TextRule | { type: 'number'; optional: true } | { type: 'literal'; value: string; message: string };

export interface HookInputSpec {
  /** The fields groundwork checks, in the order zod reports them; the rest of the input passes unread. */
  fields: Readonly<Record<string, FieldRule>>;
  /** Which field holds each fact. */
  facts: { readonly cwd: string; readonly sessionId: string; readonly source?: string };
}

export type ReadInput = { ok: true; facts: HookFacts } | { ok: false; error: string };

/** Reads `json` (a parsed JSON object) by `spec`: by hand when it keeps every rule, else zod's refusal. */
export function readHookInput(spec: HookInputSpec, json: object): ReadInput {
  const facts = inputByHand(spec, json);
  if (facts) return { ok: true, facts };
  const parsed = inputSchema(spec).safeParse(json);
  return parsed.success ? { ok: true, facts: parsed.data } : { ok: false, error: `the hook input's ${describeIssues(parsed.error, '')}` };
}

/** The facts of an input that keeps every rule of `spec`; undefined for anything else (zod then says what). */
export function inputByHand(spec: HookInputSpec, json: object): HookFacts | undefined {
  const input = json as Record<string, unknown>;
  for (const [key, rule] of Object.entries(spec.fields)) if (!keeps(rule, input[key])) return undefined;
  return factsOf(spec, input);
}

function keeps(rule: FieldRule, value: unknown): boolean {
  switch (rule.type) {
    case 'literal':
      return value === rule.value;
    case 'number':
      return value === undefined || (typeof value === 'number' && Number.isFinite(value));
    case 'text':
      if (value === undefined) return rule.optional === true;
      if (value === null) return rule.nullable === true;
      return typeof value === 'string' && (!rule.min || value.length >= rule.min[0]) && (!rule.max || value.length <= rule.max[0]) && (!rule.without || !value.includes(rule.without[0]));
  }
}

function factsOf(spec: HookInputSpec, input: Record<string, unknown>): HookFacts {
  const { cwd, sessionId, source } = spec.facts;
  return { cwd: input[cwd] as string, sessionId: input[sessionId] as string, ...(source === undefined ? {} : { source: input[source] as string }) };
}

const schemas = new WeakMap<HookInputSpec, z.ZodType<HookFacts, unknown>>();

/** zod's schema of `spec`: the same rules, built on first use and kept. */
export function inputSchema(spec: HookInputSpec): z.ZodType<HookFacts, unknown> {
  let schema = schemas.get(spec);
  if (!schema) {
    const shape = Object.fromEntries(Object.entries(spec.fields).map(([key, rule]) => [key, ruleSchema(rule)]));
    schema = z.looseObject(shape).transform((input) => factsOf(spec, input));
    schemas.set(spec, schema);
  }
  return schema;
}

function ruleSchema(rule: FieldRule): z.ZodType {
  switch (rule.type) {
    case 'literal':
      return z.literal(rule.value, rule.message);
    case 'number':
      return z.number().optional();
    case 'text': {
      let text = z.string();
      if (rule.min) text = text.min(rule.min[0], rule.min[1]);
      if (rule.max) text = text.max(rule.max[0], rule.max[1]);
      const without = rule.without;
      const checked = without ? text.refine((value) => !value.includes(without[0]), without[1]) : text;
      const nullable = rule.nullable ? checked.nullable() : checked;
      return rule.optional ? nullable.optional() : nullable;
    }
  }
}
