/**
 * @module mcp/tool-inputs
 * What each MCP tool takes, built from the zod schemas the REST routes validate with, so a field
 * means the same thing and is refused for the same reason on both surfaces. mcp/server turns
 * these into each tool's JSON Schema (its `inputSchema`) and validates every call with them: a
 * bad argument is a tool result with `isError: true` naming the field. Each is built on the first
 * MCP request that needs it, not when the Worker starts.
 */
import * as z from 'zod';
import { CheckRequestSchema } from '../checks/check-request.ts';
import { KNOWLEDGE_KINDS } from '../context/knowledge.ts';
import { createKnowledgeSchema, RetireSchema } from '../knowledge/input.ts';
import { ListQuerySchema } from '../routes/knowledge-inputs.ts';
import { BeginTurnSchema, checkTaskFields, FocusPostSchema, FormatParam, MailboxPostSchema } from '../routes/task-inputs.ts';
import { FocusPathsSchema, SkillNameSchema, TaskRequestSchema } from '../tasks/task-request.ts';
import { REPORT_CLIENT_RULE, reportClientsSchema } from '../context/report-clients.ts';
import { once } from '../lib/once.ts';

const taskIdSchema = once(() =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a task id (64 lowercase hex characters), as assemble_context answered it')
    .meta({ description: 'The task id assemble_context answered (64 hex characters).' }),
);

/** `POST /tasks` without what only a host decides over REST (provider settings, a parent task). */
export const assembleContextSchema = once(() =>
  TaskRequestSchema.unwrap().pick({ repo: true, ref: true, commit: true, cwd: true, paths: true, request: true, skills: true, agent: true, client: true, tools: true, facts: true, trusted: true })
    .strict()
    .superRefine(checkTaskFields),
);
export type AssembleContextArgs = z.output<ReturnType<typeof assembleContextSchema>>;

export const getTurnSchema = once(() => z.strictObject({ taskId: taskIdSchema(), turn: BeginTurnSchema.unwrap().shape.turn.default(0), format: FormatParam }));
export type GetTurnArgs = z.output<ReturnType<typeof getTurnSchema>>;

/** `POST /tasks/:id/paths` with the task named in the arguments: paths the work moved to, and skills and agent-requested rules it now needs. */
export const contextForPathsSchema = once(() =>
  z
    .strictObject({ taskId: taskIdSchema(), ...FocusPostSchema.unwrap().shape })
    .refine((body) => (body.paths?.length ?? 0) + (body.skills?.length ?? 0) + (body.rules?.length ?? 0) > 0, { message: 'name at least one path, skill or rule', path: ['paths'] }),
);
export type ContextForPathsArgs = z.output<ReturnType<typeof contextForPathsSchema>>;

export const checkFreshnessSchema = once(() => z.strictObject({ taskId: taskIdSchema() }));
export type CheckFreshnessArgs = z.output<ReturnType<typeof checkFreshnessSchema>>;

/**
 * `POST /tasks/:id/checks` with the task named in the arguments. The fields' own checks are the
 * REST schema's; which fields an action takes is checked by `checkBefore` with that same schema,
 * so a field that does not apply is refused with the REST message.
 */
export const checkBeforeSchema = once(() => z.strictObject({ taskId: taskIdSchema(), ...CheckRequestSchema.unwrap().shape }));
export type CheckBeforeArgs = z.output<ReturnType<typeof checkBeforeSchema>>;

export const readSkillSchema = once(() => z.strictObject({ taskId: taskIdSchema(), name: SkillNameSchema }));
export type ReadSkillArgs = z.output<ReturnType<typeof readSkillSchema>>;

/** `POST /knowledge`'s fields and checks, with `kind` defaulting to a fact (what a model records most). */
function buildRememberSchema(today: string) {
  const fields = createKnowledgeSchema(today).in.in;
  // As REST: `paths: []` on a new object is no paths.
  return fields.extend({ kind: z.enum(KNOWLEDGE_KINDS).default('fact') }).transform(({ paths, ...rest }) => (paths && paths.length > 0 ? { ...rest, paths } : rest));
}

let remembered: { today: string; schema: ReturnType<typeof buildRememberSchema> } | undefined;

/** Built once a day: review dates are checked against `today`, and every MCP request may ask. */
export function rememberSchema(today: string): ReturnType<typeof buildRememberSchema> {
  if (remembered?.today !== today) remembered = { today, schema: buildRememberSchema(today) };
  return remembered.schema;
}
export type RememberArgs = z.output<ReturnType<typeof rememberSchema>>;

/** `GET /knowledge`'s query. */
export const recallSchema = () => ListQuerySchema;
export type RecallArgs = z.output<typeof ListQuerySchema>;

export const retireKnowledgeSchema = once(() => z.strictObject({ id: z.string().min(1).max(200).meta({ description: 'The knowledge id recall or remember answered.' }), ...RetireSchema.unwrap().in.shape }));
export type RetireKnowledgeArgs = z.output<ReturnType<typeof retireKnowledgeSchema>>;

/** `POST /tasks/:id/mailbox` with the task named in the arguments. */
export const postFollowupSchema = once(() => MailboxPostSchema.unwrap().extend({ taskId: taskIdSchema() }));
export type PostFollowupArgs = z.output<ReturnType<typeof postFollowupSchema>>;

/**
 * The rules matrix of a task's repository at its commit for some paths: the paths as a task's
 * focus takes them, and the clients whose columns to show (context/report-clients; default all).
 */
export const rulesForPathsSchema = once(() =>
  z.strictObject({
    taskId: taskIdSchema(),
    paths: FocusPathsSchema.unwrap().min(1, 'name at least one path').meta({ description: 'Files or directories from the repository root (a change\'s files): the rule files on their way are reported.' }),
    clients: reportClientsSchema()
      .optional()
      .meta({ description: `The clients whose columns to show, each ${REPORT_CLIENT_RULE} (default: the clients the repository's rules settings name, else all of them).` }),
  }),
);
export type RulesForPathsArgs = z.output<ReturnType<typeof rulesForPathsSchema>>;
