/**
 * @module context/turn
 * The assembled-turn JSON that the CLI, the API and the Task Durable Object all return, and the
 * composition that makes it: grant capabilities -> run providers -> render -> digest.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { agentHash } from './agent-catalog.ts';
import type { AgentConfig } from './agents.ts';
import { clientLabel } from './client.ts';
import { grantCapabilities } from './capabilities.ts';
import { digestRequest } from './digest.ts';
import type { ContextEntry, ProviderOutcome } from './outcome.ts';
import { NOT_MOVED, type Capability } from './provider.ts';
import { contextNotices, type Notice } from './notices.ts';
import { renderFirstRequest } from './render.ts';
import { createRuleSetReader } from './rule-set-reader.ts';
import type { ReadPlan } from '../sources/read-plan.ts';
import { runProviders, snapshotProblem, type RunInput, type RunResult } from './runner.ts';
import { selects } from './provider-selection.ts';
import { runsOnTurn } from './turn-policy.ts';
import type { SettingsReport } from './settings/report.ts';
import { settleSettings, type HostSettings } from './settings/settle.ts';
import { PART_SEPARATOR, TASK_ITEM_ID } from './host-items.ts';
import type { HostItem } from './transcript.ts';
import type { AssembledTurn, EntrySummary } from './turn-schema.ts';


export interface AssembleInput extends Omit<RunInput, 'capabilities' | 'selection' | 'totalBudget' | 'setups'> {
  agent: AgentConfig;
  /** Capabilities this host wired up for the task (e.g. `repo:read` only with a snapshot). */
  available: readonly Capability[];
  /** The host's settings layers; the repository's own is read here when the task may read it. */
  settings?: HostSettings;
  /** Turn 0's read plan, which another commit's snapshot is read with (freshness); made from the task when absent. */
  plan?: ReadPlan;
}

/**
 * Gathers context for any turn: settle the settings, run the providers, and add the notices that
 * stand in for withheld reads.
 */
export async function gatherContext(input: AssembleInput): Promise<RunResult & { notices: Notice[]; settings: SettingsReport }> {
  const { agent, available, settings, plan, ...rest } = input;
  const capabilities = grantCapabilities({ agent, trusted: input.task.trusted, available });
  const withheld = capabilities.granted.has('repo:read') ? snapshotProblem(input) : capabilities.reason('repo:read');
  const settled = await settleSettings({
    registry: input.registry,
    selection: agent.providers,
    turn: input.turn,
    ...(input.moved ? { moved: input.moved } : {}),
    ...(settings ? { settings } : {}),
    repository: withheld === undefined && input.snapshot ? { snapshot: input.snapshot } : { withheld: withheld ?? 'no repository snapshot for this task' },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const ruleSets =
    input.ruleSets ??
    (withheld === undefined && input.snapshot
      ? createRuleSetReader({ registry: input.registry, agent, task: input.task, available, ...(settings ? { settings } : {}), ...(input.focusFiles ? { focusFiles: input.focusFiles } : {}), ...(plan ? { plan } : {}) })
      : undefined);
  const run = await runProviders({ ...rest, ...(ruleSets ? { ruleSets } : {}), capabilities, selection: agent.providers, totalBudget: agent.totalBudget, setups: settled.setups });
  return { ...run, notices: [...contextNotices(input.task.trusted, run.outcomes, input.registry), ...run.notices], settings: settled.report };
}

export async function assembleFirstTurn(input: AssembleInput): Promise<AssembledTurn> {
  const gathered = await gatherContext({ ...input, turn: 0 });
  const rendered = renderFirstRequest({ agent: input.agent, task: input.task, entries: gathered.entries, notices: gathered.notices });
  const system = rendered.messages.filter((message) => message.role === 'system').map((message) => message.content);
  const hash = await agentHash(input.agent);
  const task: HostItem = {
    id: TASK_ITEM_ID,
    type: 'message',
    role: 'user',
    content: rendered.parts.map((part) => part.text).join(PART_SEPARATOR),
    parts: rendered.parts,
  };
  return {
    commit: input.task.commit ?? null,
    repository: input.task.repository ?? null,
    agent: input.agent.name,
    agentHash: hash,
    ...(input.task.client && input.task.client.name !== 'none' ? { client: clientLabel(input.task.client) } : {}),
    turn: 0,
    digest: await digestRequest(rendered, gathered.settings, hash),
    chars: rendered.messages.reduce((sum, message) => sum + message.content.length, 0),
    system,
    items: [task],
    messages: rendered.messages,
    tools: rendered.tools,
    providers: gathered.outcomes,
    entries: gathered.entries.map(summariseEntry),
    settings: gathered.settings,
    ...(input.task.focusPaths.length > 0 ? { focusPaths: [...input.task.focusPaths] } : {}),
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
    stability: entry.stability,
    ...(entry.reviewBy ? { reviewBy: entry.reviewBy } : {}),
    ...(entry.appliesTo ? { appliesTo: entry.appliesTo } : {}),
    ...(entry.why === undefined ? {} : { why: entry.why }),
    chars: entry.chars,
    truncated: entry.truncated,
    warnings: entry.warnings,
  };
}

/**
 * Whether assembling this turn reads the repository at all: some provider of the agent's set
 * needs `repo:read`, is granted it, and runs on this turn. Mirrors the runner's gates.
 */
export function readsRepository(input: Pick<AssembleInput, 'registry' | 'agent' | 'available' | 'task' | 'turn' | 'moved'>): boolean {
  const { agent, registry, turn } = input;
  const grant = grantCapabilities({ agent, trusted: input.task.trusted, available: input.available });
  if (!grant.granted.has('repo:read')) return false;
  return registry.providers.some(
    (provider) => selects(agent.providers, provider.name) && provider.requires.includes('repo:read') && runsOnTurn(provider.turns, turn, input.moved ?? NOT_MOVED),
  );
}
