/**
 * @module context/turn
 * The assembled-turn JSON that the CLI, the API and the Task Durable Object all return, and the
 * composition that makes it: grant capabilities -> run providers -> render -> digest.
 */
import { z } from 'zod';
import type { AgentConfig } from './agents.ts';
import { ToolSchema } from './agents.ts';
import { grantCapabilities } from './capabilities.ts';
import { FRESHNESS, SourceSchema } from './entry.ts';
import { digestRequest } from './digest.ts';
import { OUTCOME_KINDS, type ContextEntry, type ProviderOutcome } from './outcome.ts';
import { CATEGORIES, type Capability } from './provider.ts';
import { renderFirstRequest, type Notice } from './render.ts';
import { runProviders, type RunInput, type RunResult } from './runner.ts';

export const MessageSchema = z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string() });

export const ProviderOutcomeSchema = z.object({
  name: z.string(),
  category: z.enum(CATEGORIES),
  outcome: z.enum(OUTCOME_KINDS),
  reason: z.string().optional(),
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
});

export const EntrySummarySchema = z.object({
  provider: z.string(),
  category: z.enum(CATEGORIES),
  title: z.string(),
  source: SourceSchema,
  freshness: z.enum(FRESHNESS),
  reviewBy: z.string().optional(),
  chars: z.number().int().nonnegative(),
  truncated: z.boolean(),
  warnings: z.array(z.string()),
});
export type EntrySummary = z.infer<typeof EntrySummarySchema>;

export const AssembledTurnSchema = z.object({
  commit: z.string().nullable(),
  agent: z.string(),
  turn: z.number().int().nonnegative(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  /** Characters of all `messages` contents. */
  chars: z.number().int().nonnegative(),
  messages: z.array(MessageSchema),
  tools: z.array(ToolSchema),
  providers: z.array(ProviderOutcomeSchema),
  entries: z.array(EntrySummarySchema),
});
export type AssembledTurn = z.infer<typeof AssembledTurnSchema>;

export interface AssembleInput extends Omit<RunInput, 'capabilities' | 'selection' | 'totalBudget'> {
  agent: AgentConfig;
  /** Capabilities this host wired up for the task (e.g. `repo:read` only with a snapshot). */
  available: readonly Capability[];
}

/** Gathers context for any turn: the runner's result plus the notices that stand in for withheld reads. */
export async function gatherContext(input: AssembleInput): Promise<RunResult & { notices: Notice[] }> {
  const { agent, available, ...rest } = input;
  const capabilities = grantCapabilities({ agent, trusted: input.task.trusted, available });
  const run = await runProviders({ ...rest, capabilities, selection: agent.providers, totalBudget: agent.totalBudget });
  return { ...run, notices: sourceNotices(input.task.trusted, run.outcomes) };
}

export async function assembleFirstTurn(input: AssembleInput): Promise<AssembledTurn> {
  const gathered = await gatherContext({ ...input, turn: 0 });
  const rendered = renderFirstRequest({ agent: input.agent, task: input.task, entries: gathered.entries, notices: gathered.notices });
  return {
    commit: input.task.commit ?? null,
    agent: input.agent.name,
    turn: 0,
    digest: await digestRequest(rendered),
    chars: rendered.messages.reduce((sum, message) => sum + message.content.length, 0),
    messages: rendered.messages,
    tools: rendered.tools,
    providers: gathered.outcomes,
    entries: gathered.entries.map(summariseEntry),
  };
}

/** An entry as the turn JSON reports it: provenance and size, without the body. */
export function summariseEntry(entry: ContextEntry): EntrySummary {
  return {
    provider: entry.provider,
    category: entry.category,
    title: entry.title,
    source: entry.source,
    freshness: entry.freshness,
    ...(entry.reviewBy ? { reviewBy: entry.reviewBy } : {}),
    chars: entry.chars,
    truncated: entry.truncated,
    warnings: entry.warnings,
  };
}

const WITHHELD: Partial<Record<ProviderOutcome['category'], string>> = {
  rules: 'Repository rules (AGENTS.md and similar files) were not read: this task is untrusted, so no repository content was read automatically. Treat the repository’s own instructions as unknown.',
  skills: 'Repository skills were not indexed: this task is untrusted, so no repository content was read automatically.',
};

const UNREADABLE: Partial<Record<ProviderOutcome['category'], string>> = {
  rules: 'Repository rules (AGENTS.md and similar files) could not be read for this task: reading them failed or timed out. Treat the repository’s own instructions as unknown, and do not claim to have followed them.',
  skills: 'Repository skills could not be indexed for this task: reading them failed or timed out. Treat the repository’s skills as unknown.',
};

/** Host notices that stand in for rules and skills the model does not get: withheld (untrusted) or unreadable. */
function sourceNotices(trusted: boolean, outcomes: readonly ProviderOutcome[]): Notice[] {
  return outcomes.flatMap((outcome) => {
    const text =
      !trusted && outcome.outcome === 'capability-gated'
        ? WITHHELD[outcome.category]
        : outcome.outcome === 'failed' || outcome.outcome === 'timed-out'
          ? UNREADABLE[outcome.category]
          : undefined;
    return text ? [{ provider: outcome.name, text }] : [];
  });
}

/**
 * Whether assembling this turn reads the repository at all: some provider of the agent's set
 * needs `repo:read`, is granted it, and runs on this turn. Mirrors the runner's gates.
 */
export function readsRepository(input: Pick<AssembleInput, 'registry' | 'agent' | 'available' | 'task' | 'turn'>): boolean {
  const { agent, registry, turn } = input;
  const grant = grantCapabilities({ agent, trusted: input.task.trusted, available: input.available });
  if (!grant.granted.has('repo:read')) return false;
  return registry.providers.some(
    (provider) => (agent.providers === 'all' || agent.providers.includes(provider.name)) && provider.requires.includes('repo:read') && (turn === 0 || provider.turns === 'all'),
  );
}
