/**
 * @module context/runner
 * Gathers context: settings gate (turned off) -> validate config -> turn gate -> capability gate -> run eligible providers
 * concurrently under their own timeouts -> validate entries -> per-provider budget -> total
 * budget -> stable order. Every provider in the selection gets exactly one outcome.
 */
import { groundworkVersion } from '../lib/version.ts';
import type { KeyValueStore } from '../sources/key-value-store.ts';
import type { GitHubApi, PullRequestFilesResult } from '../sources/pull-requests.ts';
import type { RepositorySource, Snapshot } from '../sources/snapshot.ts';
import { fitProviderBudget, fitTotalBudget } from './budget.ts';
import type { CapabilityGrant } from './capabilities.ts';
import { checkAnswer } from './answer-checks.ts';
import type { ContextEntry, OutcomeKind, ProviderOutcome } from './outcome.ts';
import type { KnowledgeReader } from './knowledge.ts';
import { droppedNotice, type Notice } from './notices.ts';
import type { TaskHistoryReader } from './task-history.ts';
import { CAPABILITIES, NOT_MOVED, type Capability, type EarlierEntry, type HostView, type Moved, type Provider, type ProviderRequest, type TaskView } from './provider.ts';
import { selects, type ProviderSelection } from './provider-selection.ts';
import { configFor } from './provider-config.ts';
import type { Registry } from './registry.ts';
import type { RuleSetReader } from './rule-set.ts';
import { runProvider } from './run-provider.ts';
import { settleVerdicts, type RuleVerdictInput } from './rule-verdict.ts';
import { runsOnTurn, turnGateReason } from './turn-policy.ts';
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
  /** GitHub reads bound to the task's repository; handed to `github:api` providers. */
  github?: GitHubApi;
  /** The task's rule set at any commit; handed to `repo:read` providers with the snapshot. */
  ruleSets?: RuleSetReader;
  /** Entries of earlier turns (see `ProviderRequest.history`); none by default. */
  history?: readonly EarlierEntry[];
  /** What the host recorded as new for this turn (see `ProviderRequest.moved`); nothing by default. */
  moved?: Moved;
  /** Focus paths known to name files (see `ProviderRequest.focusFiles`); none by default. */
  focusFiles?: readonly string[];
  /** The pull request's changed files as the host listed them (see `ProviderRequest.pullRequestFiles`). */
  pullRequestFiles?: PullRequestFilesResult;
  /** The task's knowledge scope; handed to providers granted `knowledge:read`. */
  knowledge?: KnowledgeReader;
  /** The tenant's earlier tasks on the repository; handed to providers granted `tasks:read`. */
  tasks?: TaskHistoryReader;
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
  /**
   * Set when a settings layer that applies could not be read (the repository's file): the reason.
   * The provider then fails with it instead of running on settings that may not be its own.
   */
  unsettled?: string;
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
  /** The notices providers asked for about material they left out, in render order (`ProviderResult.notices`). */
  notices: Notice[];
}

type Verdict = { outcome: OutcomeKind; reason?: string; durationMs: number; entries: ContextEntry[]; notices?: Notice[]; files?: RuleVerdictInput[] };

export async function runProviders(input: RunInput): Promise<RunResult> {
  const now = input.now ?? Date.now;
  const selected = input.registry.providers.filter((p) => selects(input.selection, p.name));
  const host: HostView = {
    version: groundworkVersion,
    providers: selected.map((provider) => provider.name),
    capabilities: CAPABILITIES.filter((capability) => input.capabilities.granted.has(capability)),
  };
  // Providers are already in render order, so completion order cannot leak into the result.
  const verdicts = await Promise.all(selected.map(async (provider) => ({ provider, verdict: await judge(provider, input, host, now) })));

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
    const files = verdict.files === undefined ? undefined : settleVerdicts(verdict.files, kept);
    if (files && files.leftOut > 0) {
      const note = `${files.leftOut} more rule files not listed in the verdicts`;
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
      ...(files && files.kept.length > 0 ? { verdicts: files.kept } : {}),
    };
  });
  // A provider left out whole gets its category's notice instead (see context/notices).
  const delivered = (i: number) => outcomes[i]?.outcome === 'included' || outcomes[i]?.outcome === 'empty';
  const notices = verdicts.flatMap(({ provider, verdict }, i) => {
    if (!delivered(i)) return [];
    const dropped = outcomes[i]?.outcome === 'included' ? droppedNotice(provider.name, provider.category, total.dropped.get(provider.name) ?? [], input.registry) : undefined;
    return [...(verdict.notices ?? []), ...(dropped ? [dropped] : [])];
  });
  return { outcomes, entries: total.kept, notices };
}

async function judge(provider: Provider, input: RunInput, host: HostView, now: () => number): Promise<Verdict> {
  const gated = (outcome: OutcomeKind, reason: string): Verdict => ({ outcome, reason, durationMs: 0, entries: [] });

  const setup = input.setups?.[provider.name] ?? {};
  if (setup.disabled) return gated('disabled', setup.disabled);
  const config = configFor(provider, setup.config ?? {});
  if (!config.success) return gated('invalid', describeIssues(config.error, 'config'));
  const budget = Math.min(provider.budget, setup.budget ?? provider.budget);
  // Turn first: a provider that would not run on this turn anyway is not missing anything, so
  // later turns carry no notice for it.
  if (!runsOnTurn(provider.turns, input.turn, input.moved ?? NOT_MOVED)) return gated('turn-gated', turnGateReason(provider.turns, input.turn));
  const missing = provider.requires.find((capability) => !input.capabilities.granted.has(capability));
  if (missing) return gated('capability-gated', input.capabilities.reason(missing));
  const access = grantAccess(provider, input);
  if ('gated' in access) return gated('capability-gated', access.gated);
  if (setup.unsettled) return gated('failed', setup.unsettled);

  const settled = await runProvider(
    provider,
    {
      task: input.task,
      turn: input.turn,
      config: config.data,
      host,
      history: input.history ?? [],
      moved: input.moved ?? NOT_MOVED,
      focusFiles: input.focusFiles ?? [],
      ...(input.pullRequestFiles ? { pullRequestFiles: input.pullRequestFiles } : {}),
      budget,
      now,
      ...access,
      ...(input.cache ? { cache: input.cache } : {}),
    },
    input.signal,
  );
  const { durationMs } = settled;
  if (settled.kind === 'timed-out') return { outcome: 'timed-out', reason: `no result within ${provider.timeoutMs} ms`, durationMs, entries: [] };
  if (settled.kind === 'failed') return { outcome: 'failed', reason: settled.reason, durationMs, entries: [] };

  const answer = checkAnswer(settled.value);
  if (!answer.ok) return { outcome: 'invalid', reason: answer.reason, durationMs, entries: [] };
  const notices = answer.notices.map((notice): Notice => ({ provider: provider.name, ...notice }));
  const { entries, verdicts, invalidEntries: invalid } = answer;
  if (entries.length === 0 && invalid.length > 0) {
    return { outcome: 'invalid', reason: [...invalid, ...answer.notes].join('; '), durationMs, entries: [] };
  }
  const notes = [...invalid.map((issue) => `left out invalid ${issue}`), ...answer.invalidVerdicts.map((issue) => `left out invalid ${issue}`), ...answer.notes];
  const said = verdicts.length > 0 ? { files: verdicts } : {};

  const fit = fitProviderBudget(provider, budget, entries);
  if (fit.dropped.length > 0) notes.push(`dropped for ${provider.name}'s budget of ${budget} tokens: ${fit.dropped.join(', ')}`);
  const reason = notes.length > 0 ? { reason: notes.join('; ') } : {};
  if (entries.length === 0) return { outcome: 'empty', ...reason, durationMs, entries: [], notices, ...said };
  if (fit.kept.length === 0) return { outcome: 'budget-excluded', ...reason, durationMs, entries: [], ...said };
  return { outcome: 'included', ...reason, durationMs, entries: fit.kept, notices, ...said };
}

type Access = Pick<ProviderRequest, 'snapshot' | 'source' | 'github' | 'ruleSets' | 'knowledge' | 'tasks' | 'withheld'>;

/**
 * What a provider is handed for the capabilities it requires or uses: a snapshot pinned at the
 * task's commit (with its source) for `repo:read`, the GitHub reads for `github:api`, the task's
 * knowledge scope for `knowledge:read`, its earlier tasks for `tasks:read`. A required one that cannot be served gates the provider;
 * a used one is left out and named in `withheld`.
 */
function grantAccess(provider: Provider, input: RunInput): Access | { gated: string } {
  const access: Access = { withheld: {} };
  const wanted = (capability: Capability) => provider.requires.includes(capability) || (provider.uses ?? []).includes(capability);
  for (const capability of CAPABILITIES) {
    if (!wanted(capability)) continue;
    const problem = !input.capabilities.granted.has(capability) ? input.capabilities.reason(capability) : unservable(capability, input);
    if (problem === undefined) {
      if (capability === 'repo:read' && input.snapshot) {
        access.snapshot = input.snapshot;
        if (input.source) access.source = input.source;
        if (input.ruleSets) access.ruleSets = input.ruleSets;
      }
      if (capability === 'github:api' && input.github) access.github = input.github;
      if (capability === 'knowledge:read' && input.knowledge) access.knowledge = input.knowledge;
      if (capability === 'tasks:read' && input.tasks) access.tasks = input.tasks;
    } else if (provider.requires.includes(capability)) {
      return { gated: problem };
    } else {
      access.withheld[capability] = problem;
    }
  }
  return access;
}

/** Why a granted capability still cannot be served to a provider, if it cannot. */
function unservable(capability: Capability, input: RunInput): string | undefined {
  if (capability === 'repo:read') {
    const problem = snapshotProblem(input);
    return problem === undefined ? undefined : `repo:read: ${problem}`;
  }
  if (capability === 'github:api' && !input.github) return 'github:api: no GitHub client for this task';
  if (capability === 'knowledge:read' && !input.knowledge) return 'knowledge:read: no knowledge store for this task';
  if (capability === 'tasks:read' && !input.tasks) return 'tasks:read: no task store for this task';
  return undefined;
}

/** Repository readers get a snapshot pinned at the task's commit, or do not run at all. */
export function snapshotProblem({ snapshot, task }: Pick<RunInput, 'snapshot' | 'task'>): string | undefined {
  if (!snapshot) return 'no repository snapshot for this task';
  if (task.commit !== undefined && snapshot.commit !== task.commit) return `the snapshot is at ${snapshot.commit} but the task is pinned at ${task.commit}`;
  return undefined;
}
