/**
 * @module context/runner
 * Gathers context: validate config -> capability gate -> turn gate -> run eligible providers
 * concurrently under their own timeouts -> validate entries -> per-provider budget -> total
 * budget -> stable order. Every provider in the selection gets exactly one outcome.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { fitProviderBudget, fitTotalBudget } from './budget.ts';
import type { CapabilityGrant } from './capabilities.ts';
import { EntrySchema, type Entry } from './entry.ts';
import type { ContextEntry, OutcomeKind, ProviderOutcome } from './outcome.ts';
import type { Provider, TaskView } from './provider.ts';
import type { Registry } from './registry.ts';
import { runProvider } from './run-provider.ts';
import { describeIssues, fieldPath } from './zod-issues.ts';

export interface RunInput {
  registry: Registry;
  /** The agent configuration's provider set. */
  selection: 'all' | readonly string[];
  task: TaskView;
  turn: number;
  capabilities: CapabilityGrant;
  /** Host configuration per provider name; validated against each provider's schema. */
  configs?: Readonly<Record<string, unknown>>;
  snapshot?: Snapshot;
  cache?: KeyValueStore;
  totalBudget: number;
  signal?: AbortSignal;
  now?: () => number;
}

export interface RunResult {
  /** In render order, one per selected provider. */
  outcomes: ProviderOutcome[];
  /** In render order, after both budgets. */
  entries: ContextEntry[];
}

/** Entries are checked one by one below, so one bad entry costs only itself. */
const ResultSchema = z.object({ entries: z.array(z.unknown()), notes: z.array(z.string()).default([]) });

type Verdict = { outcome: OutcomeKind; reason?: string; durationMs: number; entries: ContextEntry[] };

export async function runProviders(input: RunInput): Promise<RunResult> {
  const now = input.now ?? Date.now;
  const selected = input.registry.providers.filter((p) => input.selection === 'all' || input.selection.includes(p.name));
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

  const config = provider.config.safeParse(input.configs?.[provider.name] ?? {});
  if (!config.success) return gated('invalid', describeIssues(config.error, 'config'));
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
      budget: provider.budget,
      now,
      ...(input.snapshot && provider.requires.includes('repo:read') ? { snapshot: input.snapshot } : {}),
      ...(input.cache ? { cache: input.cache } : {}),
    },
    input.signal,
  );
  const { durationMs } = settled;
  if (settled.kind === 'timed-out') return { outcome: 'timed-out', reason: `no result within ${provider.timeoutMs} ms`, durationMs, entries: [] };
  if (settled.kind === 'failed') return { outcome: 'failed', reason: settled.reason, durationMs, entries: [] };

  const returned = ResultSchema.safeParse(Array.isArray(settled.value) ? { entries: settled.value } : settled.value);
  if (!returned.success) return { outcome: 'invalid', reason: describeIssues(returned.error, ''), durationMs, entries: [] };
  const { entries, invalid } = validateEntries(returned.data.entries);
  if (entries.length === 0 && invalid.length > 0) {
    return { outcome: 'invalid', reason: [...invalid, ...returned.data.notes].join('; '), durationMs, entries: [] };
  }
  const notes = [...invalid.map((issue) => `left out invalid ${issue}`), ...returned.data.notes];

  const fit = fitProviderBudget(provider, entries);
  if (fit.dropped.length > 0) notes.push(`dropped for ${provider.name}'s budget of ${provider.budget} tokens: ${fit.dropped.join(', ')}`);
  const reason = notes.length > 0 ? { reason: notes.join('; ') } : {};
  if (entries.length === 0) return { outcome: 'empty', ...reason, durationMs, entries: [] };
  if (fit.kept.length === 0) return { outcome: 'budget-excluded', ...reason, durationMs, entries: [] };
  return { outcome: 'included', ...reason, durationMs, entries: fit.kept };
}

/** Valid entries in order, and one issue line per invalid entry naming its index and field. */
function validateEntries(raw: readonly unknown[]): { entries: Entry[]; invalid: string[] } {
  const entries: Entry[] = [];
  const invalid: string[] = [];
  raw.forEach((candidate, index) => {
    const parsed = EntrySchema.safeParse(candidate);
    if (parsed.success) entries.push(parsed.data);
    // One line per entry (its issues joined by commas), so the outcome's `; `-separated reason counts entries.
    else invalid.push(parsed.error.issues.map((issue) => `${fieldPath(`entries[${index}]`, issue.path)}: ${issue.message}`).join(', '));
  });
  return { entries, invalid };
}

/** Repository readers get a snapshot pinned at the task's commit, or do not run at all. */
function snapshotProblem({ snapshot, task }: RunInput): string | undefined {
  if (!snapshot) return 'no repository snapshot for this task';
  if (task.commit !== undefined && snapshot.commit !== task.commit) return `the snapshot is at ${snapshot.commit} but the task is pinned at ${task.commit}`;
  return undefined;
}
