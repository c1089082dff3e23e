/**
 * @module mcp/tool-outputs
 * What each tool's `structuredContent` holds when it answers (not a refusal), as zod schemas
 * built from the ones the services answer with, so `tools/list` can give a program each tool's
 * `outputSchema` and the answers cannot drift from it. MCP asks that a tool with an output schema
 * answer "structured results that conform to this schema", and that a client validate them
 * (2026-07-28 Tools, "Output Schema"); the tests hold every answer to it with the official SDK
 * client, which does, refusals (`isError`) included (the 1.x SDK client checks every
 * `structuredContent`): so each schema is "the answer, or a refusal", a refusal being an object
 * whose `status` says why (`not-found`, `conflict`, `bad_request`, …) and `taskId` which task.
 *
 * One schema serves every tool that answers a turn (assemble_context, get_turn,
 * context_for_paths): a turn ready, a task still assembling, or (get_turn with `format`) the
 * request body a model API takes.
 */
import * as z from 'zod';
import { CheckResultSchema } from '../checks/result.ts';
import { KnowledgeSchema } from '../context/knowledge.ts';
import { MailboxItemSchema } from '../context/transcript.ts';
import { FreshnessReportSchema } from '../freshness/report.ts';
import { once } from '../lib/once.ts';
import { TASK_STATUSES } from '../tasks/task-request.ts';
import { SkillReadResultSchema } from '../tasks/task-results.ts';
import type { ToolName } from './tools.ts';

const taskId = () => z.string();

const turnOutput = once(() => {
  const split = z.object({ recorded: z.array(z.string()), duplicates: z.array(z.string()) });
  return z.object({
    taskId: taskId(),
    status: z.enum(TASK_STATUSES).optional(),
    reason: z.string().nullable().optional(),
    turn: z.number().int().nonnegative().optional(),
    repository: z.string().nullable().optional(),
    commit: z.string().nullable().optional(),
    digest: z.string().optional(),
    chars: z.number().int().nonnegative().optional(),
    providers: z.array(z.object({ name: z.string(), outcome: z.string(), tokens: z.number().int().nonnegative(), reason: z.string().optional() })).optional(),
    sources: z.array(z.object({ provider: z.string(), title: z.string(), path: z.string().optional(), revision: z.string().optional() })).optional(),
    viewUrl: z.string().nullable().optional(),
    format: z.string().optional(),
    body: z.unknown().optional(),
    focus: z.object({ taskId: z.string(), paths: split, skills: split, rules: split, nextTurn: z.number().int().nonnegative() }).optional(),
    paths: split.optional(),
    skills: split.optional(),
    rules: split.optional(),
    nextTurn: z.number().int().nonnegative().optional(),
  });
});

const OUTPUTS: Record<ToolName, () => z.ZodType> = {
  assemble_context: turnOutput,
  get_turn: turnOutput,
  context_for_paths: turnOutput,
  check_freshness: once(() => z.object({ taskId: taskId(), ...FreshnessReportSchema.unwrap().shape })),
  // `id` numbers the record on a service's task; the local server's checks are not recorded.
  check_before: once(() => z.intersection(z.object({ taskId: taskId(), id: z.number().int().positive().optional() }), CheckResultSchema)),
  read_skill: once(() => {
    const ok = SkillReadResultSchema.unwrap().options[0];
    const { filesText: _text, ...skill } = ok.shape.skill.shape;
    return z.object({ taskId: taskId(), ...skill });
  }),
  remember: once(() => z.object({ knowledge: KnowledgeSchema })),
  retire_knowledge: once(() => z.object({ knowledge: KnowledgeSchema })),
  recall: once(() => z.object({ items: z.array(KnowledgeSchema), nextCursor: z.string().nullable() })),
  post_followup: once(() => z.object({ taskId: taskId(), item: MailboxItemSchema, duplicate: z.boolean() })),
};

/** What every tool's refusal carries: why, and (for a task's tools) which task; more where the tool has it. */
const refusalOutput = once(() =>
  z.looseObject({ status: z.string(), taskId: z.string().optional() }),
);

const jsonSchemas = new Map<ToolName, Record<string, unknown>>();

/**
 * The tool's output schema as JSON Schema 2020-12 (the dialect MCP assumes without `$schema`),
 * with `type: "object"` at its root as 2025-11-25 requires of an output schema.
 */
export function outputSchema(name: ToolName): Record<string, unknown> {
  let schema = jsonSchemas.get(name);
  if (!schema) {
    const answerOrRefusal = z.union([OUTPUTS[name](), refusalOutput()]);
    const { $schema: _dialect, ...built } = z.toJSONSchema(answerOrRefusal, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    schema = { type: 'object', ...built };
    jsonSchemas.set(name, schema);
  }
  return schema;
}
