/**
 * @module tasks/inspection
 * Everything the inspector page shows about one task, as the Task object answers it: the task
 * (as `GET /tasks/:id` describes it), each stored turn with its provenance, and the transcript
 * with the turn each item was appended in. Parsed by the route like every RPC answer.
 */
import * as z from 'zod';
import type { TaskCaller } from '../auth/task-caller.ts';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ToolSchema } from '../context/agents.ts';
import { SettingsReportSchema } from '../context/settings/report.ts';
import { TranscriptItemSchema } from '../context/transcript.ts';
import { FreshnessReportSchema } from '../freshness/report.ts';
import { AgentHashSchema, EntrySummarySchema, ProviderOutcomeSchema } from '../context/turn-schema.ts';
import { GitHubUsageSchema } from '../sources/github/usage.ts';
import { TaskDescriptionSchema } from './task-results.ts';
import { TurnUsageSchema } from './turn-usage.ts';

export const InspectedTurnSchema = lazySchema(() => z.object({
  turn: z.number().int().nonnegative(),
  digest: z.string(),
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  agent: z.string(),
  /** The agent configuration's hash; absent on turns stored before it was kept. */
  agentHash: AgentHashSchema.optional(),
  /** The client the turn was assembled for; absent for `none` and turns stored before clients. */
  client: z.string().optional(),
  commit: z.string().nullable(),
  repository: z.string().nullable(),
  createdAt: z.string(),
  /** The transcript item this turn's context went into (`local:task`, `local:context:<n>`), or null when it had none. */
  hostItemId: z.string().nullable(),
  /** Host system blocks (turn 0 only). */
  system: z.array(z.string()),
  tools: z.array(ToolSchema),
  providers: z.array(ProviderOutcomeSchema),
  entries: z.array(EntrySummarySchema),
  settings: SettingsReportSchema.optional(),
  github: GitHubUsageSchema.optional(),
  /** What the model API reported for this turn's request, once a host posted it. */
  usage: TurnUsageSchema.optional(),
}));
export type InspectedTurn = z.infer<typeof InspectedTurnSchema>;

export const TimelineItemSchema = lazySchema(() => z.object({ turn: z.number().int().nonnegative(), item: TranscriptItemSchema }));
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

/** A read-back asked for with the page (never on a plain load: it reads the repository). */
export const InspectedFreshnessSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('checked'), report: FreshnessReportSchema }),
  /** No commit to compare from yet. */
  z.object({ status: z.literal('unavailable'), reason: z.string() }),
]));
export type InspectedFreshness = z.infer<typeof InspectedFreshnessSchema>;

export const InspectionSchema = lazySchema(() => z.object({
  task: TaskDescriptionSchema,
  turns: z.array(InspectedTurnSchema),
  transcript: z.array(TimelineItemSchema),
  freshness: InspectedFreshnessSchema.optional(),
}));
export type Inspection = z.infer<typeof InspectionSchema>;

/** Who asks: a tenant (its grants apply) or a person GitHub let read the repository (auth/task-caller), or a signed link to this one task. */
export type InspectAccess = { tenant: TaskCaller } | { link: { exp: string; sig: string } };

export interface InspectOptions {
  /** Also read back what changed since the pinned commit (`GET /tasks/:id/freshness`'s report). */
  freshness?: boolean;
}

export const InspectResultSchema = lazySchema(() => z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), inspection: InspectionSchema }),
  z.object({ status: z.literal('not-found') }),
  /** A link that does not open this task: `expired` (with when) or `bad-signature`; `not-configured` when no secret is set. */
  z.object({ status: z.literal('forbidden'), reason: z.enum(['expired', 'bad-signature', 'not-configured']), expiredAt: z.string().optional() }),
]));
export type InspectResult = z.infer<typeof InspectResultSchema>;
