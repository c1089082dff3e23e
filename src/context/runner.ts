/**
 * @module context/runner
 * Gathers context: settings gate (turned off) -> validate config -> capability gate -> turn gate -> run eligible providers
 * concurrently under their own timeouts -> validate entries -> per-provider budget -> total
 * budget -> stable order. Every provider in the selection gets exactly one outcome.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { RepositorySource, Snapshot } from '../sources/snapshot.ts';
import { fitProviderBudget, fitTotalBudget } from './budget.ts';
import type { CapabilityGrant } from './capabilities.ts';
import { EntrySchema } from './entry.ts';
import type { ContextEntry, OutcomeKind, ProviderOutcome } from './outcome.ts';
import type { KnowledgeReader } from './knowledge.ts';
import type { Capability, Provider, ProviderRequest, TaskView } from './provider.ts';
import { selects, type ProviderSelection } from './provider-selection.ts';
import type { Registry } from './registry.ts';
import { runProvider } from './run-provider.ts';
import { describeIssues } from './zod-issues.ts';

export interface RunInput {
  registry: Registry;
  /** The agent configuration's provider set. */
  selection: ProviderSelection;
  task: TaskView;
  turn: number;
  capabilities: CapabilityGrant;
  /** The host's settings per provider name (see context/settings); absent means the provider's defaults. */
  setups?: Readonly<Record<string, ProviderSetup>>;
  snapshot?: Snapshot;
  /** Where `snapshot` came from; handed to `repo:read` providers with it. */
  source?: RepositorySource;
  /** The task's knowledge scope; handed to providers granted `knowledge:read`. */
  knowledge?: KnowledgeReader;
  cache?: KeyValueStore;
  totalBudget: number;
  signal?: AbortSignal;
  now?: () => number;
}

/** What the host decided for one provider of a run. */
export interface ProviderSetup {
  /** Config fields; validated against the provider's schema, which fills in the rest. */
  config?: unknown;
  /** Tokens; never more than the provider declares, whatever is asked. */
  budget?: number;
  /** Set when settings turned the provider off: the reason. */
  disabled?: string;
  /** Which settings differ from the provider's defaults, for the outcome's reason. */
  note?: string;
}

/** Outcomes of providers that did not run for reasons settings do not touch; a settings note there would mislead. */
const UNCONFIGURED: ReadonlySet<OutcomeKind> = new Set(['disabled', 'turn-gated', 'capability-gated']);

export interface RunResult {
  /** In render order, one per selected provider. */
  outcomes: ProviderOutcome[];
  /** In render order, after both budgets. */
  entries: ContextEntry[];
}

const ResultSchema = z.object({ entries: z.array(EntrySchema), notes: z.array(z.string()).default([]) });

type Verdict = { outcome: OutcomeKind; reason?: string; durationMs: number; entries: ContextEntry[] };

export async function runProviders(input: RunInput): Promise<RunResult> {
  const now = input.now ?? Date.now;
  const selected = input.registry.providers.filter((p) => selects(input.selection, p.name));
  // Providers are already in render order, so completion order cannot leak into the result.
  const verdicts = await Promise.all(selected.map(async (provider) => ({ provider, verdict: await judge(provider, input, now) })));

  const ordered = verdicts.flatMap(({ verdict }) => verdict.entries);
  const total = fitTotalBudget(ordered, input.totalBudget);
  const outcomes = verdicts.map(({ provider, verdict }): ProviderOutcome => {
    const kept = total.kept.filter((entry) => entry.provider === provider.name);
    const droppedForTotal = total.dropped.get(provider.name) ?? [];
    let outcome = verdict.outcome;
    let reason = verdict.reason;
    if (outcome === 'included' && droppedForTotal.length > 0) {
      const note = `dropped for the total budget of ${input.totalBudget} tokens: ${droppedForTotal.join(', ')}`;
      if (kept.length === 0) outcome = 'budget-excluded';
      reason = reason ? `${reason}; ${note}` : note;
    }
    const setting = input.setups?.[provider.name]?.note;
    if (setting && !UNCONFIGURED.has(outcome)) reason = reason ? `${reason}; ${setting}` : setting;
    return {
      name: provider.name,
      category: provider.category,
      outcome,
      ...(reason === undefined ? {} : { reason }),
      chars: kept.reduce((sum, entry) => sum + entry.chars, 0),
      tokens: kept.reduce((sum, entry) => sum + entry.tokens, 0),
      durationMs: verdict.durationMs,
    };
  });
  return { outcomes, entries: total.kept };
}

async function judge(provider: Provider, input: RunInput, now: () => number): Promise<Verdict> {
  const gated = (outcome: OutcomeKind, reason: string): Verdict => ({ outcome, reason, durationMs: 0, entries: [] });

  const setup = input.setups?.[provider.name] ?? {};
  if (setup.disabled) return gated('disabled', setup.disabled);
  const config = provider.config.safeParse(setup.config ?? {});
  if (!config.success) return gated('invalid', describeIssues(config.error, 'config'));
  const budget = Math.min(provider.budget, setup.budget ?? provider.budget);
  const missing = provider.requires.find((capability) => !input.capabilities.granted.has(capability));
  if (missing) return gated('capability-gated', input.capabilities.reason(missing));
  const unpinned = provider.requires.includes('repo:read') ? snapshotProblem(input) : undefined;
  if (unpinned) return gated('capability-gated', `repo:read: ${unpinned}`);
  if (provider.turns === 'first' && input.turn > 0) return gated('turn-gated', `runs on the first turn only (this is turn ${input.turn})`);

  const settled = await runProvider(
    provider,
    {
      task: input.task,
      turn: input.turn,
      config: config.data,
      budget,
      now,
      ...grantedResources(provider, input),
      ...(input.cache ? { cache: input.cache } : {}),
    },
    input.signal,
  );
  const { durationMs } = settled;
  if (settled.kind === 'timed-out') return { outcome: 'timed-out', reason: `no result within ${provider.timeoutMs} ms`, durationMs, entries: [] };
  if (settled.kind === 'failed') return { outcome: 'failed', reason: settled.reason, durationMs, entries: [] };

  const returned = ResultSchema.safeParse(Array.isArray(settled.value) ? { entries: settled.value } : settled.value);
  if (!returned.success) return { outcome: 'invalid', reason: describeIssues(returned.error, ''), durationMs, entries: [] };
  const { entries, notes } = returned.data;

  const fit = fitProviderBudget(provider, budget, entries);
  if (fit.dropped.length > 0) notes.push(`dropped for ${provider.name}'s budget of ${budget} tokens: ${fit.dropped.join(', ')}`);
  const reason = notes.length > 0 ? { reason: notes.join('; ') } : {};
  if (entries.length === 0) return { outcome: 'empty', ...reason, durationMs, entries: [] };
  if (fit.kept.length === 0) return { outcome: 'budget-excluded', ...reason, durationMs, entries: [] };
  return { outcome: 'included', ...reason, durationMs, entries: fit.kept };
}

/**
 * What a provider's granted capabilities, required or optional, hand it: the pinned snapshot and
 * its source for `repo:read`, the scoped reader for `knowledge:read`. Nothing it did not ask for.
 */
function grantedResources(provider: Provider, input: RunInput): Pick<ProviderRequest, 'snapshot' | 'source' | 'knowledge'> {
  const uses = (capability: Capability) =>
    input.capabilities.granted.has(capability) && (provider.requires.includes(capability) || (provider.optional ?? []).includes(capability));
  const repository = uses('repo:read') && input.snapshot && !snapshotProblem(input) ? { snapshot: input.snapshot, ...(input.source ? { source: input.source } : {}) } : {};
  return { ...repository, ...(uses('knowledge:read') && input.knowledge ? { knowledge: input.knowledge } : {}) };
}

/** Repository readers get a snapshot pinned at the task's commit, or do not run at all. */
export function snapshotProblem({ snapshot, task }: Pick<RunInput, 'snapshot' | 'task'>): string | undefined {
  if (!snapshot) return 'no repository snapshot for this task';
  if (task.commit !== undefined && snapshot.commit !== task.commit) return `the snapshot is at ${snapshot.commit} but the task is pinned at ${task.commit}`;
  return undefined;
}
