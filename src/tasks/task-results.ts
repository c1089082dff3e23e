/**
 * @module tasks/task-results
 * What a Task object's RPC methods answer, as zod schemas. Routes parse every answer: RPC types
 * cannot express open JSON (a tool's input schema), and a parsed answer is one we can trust.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { SkillManifestSchema } from '../providers/skills/skill-manifest-schema.ts';
import { MailboxItemSchema } from '../context/transcript.ts';
import { AssembledTurnSchema, ProviderOutcomeSchema } from '../context/turn-schema.ts';
import { FreshnessReportSchema } from '../freshness/report.ts';
import { CheckLogSchema, CheckRecordSchema } from '../checks/result.ts';
import { TaskRequestSchema, TASK_STATUSES } from './task-request.ts';
import { GitHubUsageSchema } from '../sources/github/usage.ts';
import { TurnUsageSchema } from './turn-usage.ts';

const NotFound = z.object({ status: z.literal('not-found') });
const Conflict = lazySchema(() => z.object({ status: z.literal('conflict'), message: z.string() }));

export const TurnResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), turn: AssembledTurnSchema }),
  NotFound,
  Conflict,
  z.object({ status: z.literal('failed'), reason: z.string() }),
]));
export type TurnResult = z.infer<typeof TurnResultSchema>;

/** An append that would take the transcript past its cap; nothing was written. */
const TooLarge = lazySchema(() => z.object({ status: z.literal('too-large'), message: z.string() }));

export const AppendResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), appended: z.array(z.string()), duplicates: z.array(z.string()) }),
  NotFound,
  Conflict,
  TooLarge,
  /** The batch was refused whole; `field` names the item and field, e.g. `items[2].callId`. */
  z.object({ status: z.literal('invalid'), field: z.string(), message: z.string() }),
]));
export type AppendResult = z.infer<typeof AppendResultSchema>;

export const FreshnessResultSchema = lazySchema(() => z.discriminatedUnion('status', [z.object({ status: z.literal('ok'), report: FreshnessReportSchema }), NotFound, Conflict]));
export type FreshnessResult = z.infer<typeof FreshnessResultSchema>;

export const CheckResultRpcSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), check: CheckRecordSchema }),
  NotFound,
  /** The check cannot be asked of this task: it has no commit yet, or the action does not apply (merge without a pull request). */
  Conflict,
]));
export type CheckResultRpc = z.infer<typeof CheckResultRpcSchema>;

export const MailboxResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), item: MailboxItemSchema, duplicate: z.boolean() }),
  NotFound,
  Conflict,
  /** Over a bound: `field` is `text` (too long) or `mailbox` (too many follow-ups). */
  z.object({ status: z.literal('too-large'), field: z.string(), message: z.string() }),
]));
export type MailboxResult = z.infer<typeof MailboxResultSchema>;

/** Focus a host records on a task after it was created: paths it touches now, skills and agent-requested rules it asks for. */
export interface FocusPost {
  paths: string[];
  skills: string[];
  rules: string[];
}

const FocusSplit = lazySchema(() => z.object({ recorded: z.array(z.string()), duplicates: z.array(z.string()) }));

export const FocusResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  /** `nextTurn`: the turn that will follow what was recorded (the next one to begin). */
  z.object({ status: z.literal('ok'), paths: FocusSplit, skills: FocusSplit, rules: FocusSplit, nextTurn: z.number().int().nonnegative() }),
  /** A rule the task's rules index does not list: `field` names it (`rules[i]`); nothing was recorded. */
  z.object({ status: z.literal('invalid'), field: z.string(), message: z.string() }),
  NotFound,
  Conflict,
  /** Over the task's bound of posted paths or skills: `field` names which; nothing was recorded. */
  z.object({ status: z.literal('too-large'), field: z.string(), message: z.string() }),
]));
export type FocusResult = z.infer<typeof FocusResultSchema>;
export const UsageResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), usage: TurnUsageSchema, duplicate: z.boolean() }),
  NotFound,
  Conflict,
]));
export type UsageResult = z.infer<typeof UsageResultSchema>;

/** What a polling host reads to notice follow-ups. */
export const MailboxSummarySchema = lazySchema(() => z.object({ count: z.number().int().nonnegative(), lastItemId: z.string().nullable(), lastAt: z.string().nullable() }));
export type MailboxSummary = z.infer<typeof MailboxSummarySchema>;

export const TaskDescriptionSchema = lazySchema(() => z.object({
  id: z.string(),
  status: z.enum(TASK_STATUSES),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  request: TaskRequestSchema,
  commit: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  mailbox: MailboxSummarySchema,
  /** Checks made before actions (`POST /tasks/:id/checks`): the last 50 without their details, newest first. */
  checks: CheckLogSchema,
  turns: z.array(
    z.object({
      turn: z.number().int(),
      digest: z.string(),
      chars: z.number().int(),
      tokens: z.number().int(),
      empty: z.boolean(),
      agent: z.string(),
      commit: z.string().nullable(),
      createdAt: z.string(),
      providers: z.array(ProviderOutcomeSchema),
      /** GitHub requests, GraphQL points and the remaining budget GitHub reported, for GitHub API tasks. */
      github: GitHubUsageSchema.optional(),
      /** What the model API reported for this turn's request (`POST /tasks/:id/turns/:n/usage`), once a host posted it. */
      usage: TurnUsageSchema.optional(),
    }),
  ),
}));
export type TaskDescription = z.infer<typeof TaskDescriptionSchema>;

export const DescribeResultSchema = z.union([TaskDescriptionSchema, NotFound]);

const Missing = lazySchema(() => z.object({ status: z.literal('missing'), reason: z.string() }));
const Failed = lazySchema(() => z.object({ status: z.literal('failed'), reason: z.string() }));

/** A skill of the task's index read on request (`read_skill`): its whole SKILL.md and its bundled files. */
export const SkillReadResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    skill: z.object({
      name: z.string(),
      description: z.string(),
      path: z.string(),
      commit: z.string(),
      blob: z.string(),
      text: z.string(),
      truncated: z.boolean(),
      files: z.array(z.object({ path: z.string(), kind: z.enum(['file', 'dir', 'symlink', 'submodule']), size: z.number().optional(), unlisted: z.enum(['depth', 'limit', 'failed']).optional() })),
      filesText: z.string().optional(),
    }),
  }),
  NotFound,
  Conflict,
  Missing,
  Failed,
]));
export type SkillReadResult = z.infer<typeof SkillReadResultSchema>;

/** A rules or skill file the task was given, read again at the commit it was read at. */
export const SourceReadResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), file: z.object({ path: z.string(), revision: z.string(), blob: z.string(), provider: z.string(), text: z.string(), truncated: z.boolean() }) }),
  NotFound,
  Conflict,
  Missing,
  Failed,
]));
export type SourceReadResult = z.infer<typeof SourceReadResultSchema>;

/** The skills the MCP skills extension serves of a task, at its commit, ranked for it (task-skills). */
export const SkillCatalogResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), commit: z.string(), skills: z.array(SkillManifestSchema), warnings: z.array(z.string()) }),
  NotFound,
  Conflict,
  Failed,
]));
export type SkillCatalogResult = z.infer<typeof SkillCatalogResultSchema>;

/** One file of a skill the task serves, its bytes as they are at the task's commit. */
export const SkillFileResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), path: z.string(), bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array) }),
  NotFound,
  Conflict,
  Missing,
  Failed,
]));
export type SkillFileResult = z.infer<typeof SkillFileResultSchema>;
