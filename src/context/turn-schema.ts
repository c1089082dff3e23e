/**
 * @module context/turn-schema
 * What an assembled turn is, as stored and answered: the turn, its providers' outcomes and its
 * entries' summaries. Apart from the assembly that makes a turn (context/turn), so the Worker's
 * routes and the Task object's reads parse turns without loading the runner, the renderer and
 * the settings reader.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ToolSchema } from './agents.ts';
import { AppliesToSchema, FRESHNESS, SourceSchema, STABILITIES } from './entry.ts';
import { OUTCOME_KINDS } from './outcome.ts';
import { CATEGORIES } from './provider.ts';
import { RuleVerdictSchema } from './rule-verdict.ts';
import { SettingsReportSchema } from './settings/report.ts';
import { TranscriptItemSchema } from './transcript.ts';

export const MessageSchema = lazySchema(() => z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string() }));
export type Message = z.infer<typeof MessageSchema>;

export const ProviderOutcomeSchema = lazySchema(() => z.object({
  name: z.string(),
  category: z.enum(CATEGORIES),
  outcome: z.enum(OUTCOME_KINDS),
  reason: z.string().optional(),
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  /** Rules: one verdict per instruction file found. Absent for other providers and on turns stored before verdicts. */
  verdicts: z.array(RuleVerdictSchema).optional(),
}));

export const EntrySummarySchema = lazySchema(() => z.object({
  provider: z.string(),
  category: z.enum(CATEGORIES),
  title: z.string(),
  source: SourceSchema,
  freshness: z.enum(FRESHNESS),
  /** Absent on turns stored before entries declared it. */
  stability: z.enum(STABILITIES).optional(),
  reviewBy: z.string().optional(),
  /** The focus paths it applies to, for entries that follow them (rules). */
  appliesTo: AppliesToSchema.optional(),
  /** Why it is given, when the task's client does not load it by itself (rules). */
  why: z.string().optional(),
  chars: z.number().int().nonnegative(),
  truncated: z.boolean(),
  warnings: z.array(z.string()),
}));
export type EntrySummary = z.infer<typeof EntrySummarySchema>;

export const AgentHashSchema = lazySchema(() => z.string().regex(/^sha256:[0-9a-f]{64}$/));

export const AssembledTurnSchema = lazySchema(() => z.object({
  commit: z.string().nullable(),
  /** The repository's identity (never with credentials); null for turns stored before it was recorded. */
  repository: z.string().nullable(),
  agent: z.string(),
  /** The agent configuration the turn was assembled with (`agentHash`); absent on turns stored before it was recorded. */
  agentHash: AgentHashSchema.optional(),
  /** The client that reads the context (`codex`, `claude-code@2.1.332`); absent: `none`, or a turn stored before clients. */
  client: z.string().optional(),
  turn: z.number().int().nonnegative(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  /** Characters of all `messages` contents. */
  chars: z.number().int().nonnegative(),
  /** Host system blocks, in order. */
  system: z.array(z.string()),
  /** The transcript as the model sees it at this turn: the source of truth the format adapters translate. */
  items: z.array(TranscriptItemSchema),
  /** The role/content view of `system` and `items`, kept for clients that read it. */
  messages: z.array(MessageSchema),
  tools: z.array(ToolSchema),
  providers: z.array(ProviderOutcomeSchema),
  entries: z.array(EntrySummarySchema),
  /** The settings layers and the effective settings this turn was assembled with. */
  settings: SettingsReportSchema.optional(),
  /** The task's focus paths besides its working directory, as turn 0 was assembled with them; absent when none. */
  focusPaths: z.array(z.string()).optional(),
  /** A later turn's new focus (posted since the previous turn began); absent when there was none. */
  moved: z.object({ paths: z.array(z.string()), skills: z.array(z.string()), rules: z.array(z.string()).default([]) }).optional(),
}));
export type AssembledTurn = z.infer<typeof AssembledTurnSchema>;
