/**
 * @module routes/task-inputs
 * What the tasks API accepts, as the zod schemas its routes validate with; the OpenAPI document
 * (src/openapi/) is generated from the same schemas.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { FORMATS } from '../context/formats/format.ts';
import { MailboxSenderSchema } from '../context/mailbox.ts';
import { decimalParam } from '../http/params.ts';
import { FocusPathsSchema, RuleNameSchema, SkillNameSchema, TaskRequestSchema } from '../tasks/task-request.ts';
import { MAX_TASK_WAIT_SECONDS } from '../tasks/task-wait.ts';

/** What every way of creating a task from outside checks beyond the fields' own shapes (REST and MCP). */
export function checkTaskFields(body: { ref?: string | undefined; commit?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.commit !== undefined && body.ref === undefined) ctx.addIssue({ code: 'custom', path: ['commit'], message: 'names the commit a ref resolved to: give the ref as well' });
}

export const CreateTaskSchema = lazySchema(() =>
  TaskRequestSchema.unwrap().pick({
  repo: true,
  ref: true,
  commit: true,
  cwd: true,
  paths: true,
  request: true,
  agent: true,
  client: true,
  trusted: true,
  skills: true,
  providers: true,
  parentTaskId: true,
  facts: true,
  tools: true,
})
  // `cli` when the groundwork CLI creates the task (`groundwork run`); it changes only the label.
  .extend({ origin: z.enum(['api', 'cli']).default('api') })
  .strict()
  // `agent` and `tools` are checked against this deployment's agents after parsing (tasks/task-agent).
  .superRefine(checkTaskFields));

export const BeginTurnSchema = lazySchema(() => z.strictObject({ turn: z.number().int().nonnegative().max(10_000) }));
/** Text length is checked by the task (413 naming `text`), so one bound holds for every way in. */
export const MailboxPostSchema = lazySchema(() => z.strictObject({
  from: MailboxSenderSchema,
  text: z.string().refine((text) => text.trim() !== '', 'must not be empty'),
  /** The client's idempotency key: a retry with the same id appends nothing new. */
  id: z.string().min(1).max(200).regex(/^[^\p{Cc}]+$/u, 'no control characters').optional(),
}));
export const TurnParam = lazySchema(() => decimalParam(10_000));
/** `GET /tasks/:id?wait=`: seconds to wait for the task to be ready or failed. */
export const WaitParam = lazySchema(() => decimalParam(MAX_TASK_WAIT_SECONDS));
export const FormatParam = z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional();
/** Focus for the next turn (`POST /tasks/:id/paths`): at least one path or skill; each list bounded like the task request's. */
export const FocusPostSchema = lazySchema(() => z
  .strictObject({
    paths: FocusPathsSchema.optional(),
    skills: z.array(SkillNameSchema).max(8, 'at most 8 skills').optional(),
    /** Agent-requested rules by the name (or path) the rules index lists. */
    rules: z.array(RuleNameSchema).max(8, 'at most 8 rules').optional(),
  })
  .refine((body) => (body.paths?.length ?? 0) + (body.skills?.length ?? 0) + (body.rules?.length ?? 0) > 0, { message: 'name at least one path, skill or rule', path: ['paths'] }));
