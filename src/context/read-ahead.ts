/**
 * @module context/read-ahead
 * The merged read plan of the providers that will read the repository on this turn: the same
 * selection, settings and gates as the runner, asked before it runs, so the host can hand the
 * plan to the source (which then fetches ahead in as few round trips as it can).
 *
 * The repository's own settings file is not known yet when the plan is made (it is read in the
 * same round), so providers plan with the host's layers; a file that redirects discovery costs
 * one more round for what it redirects, and nothing else.
 */
import { EMPTY_PLAN, mergePlans, type ReadPlan } from '../sources/read-plan.ts';
import type { AgentConfig } from './agents.ts';
import { grantCapabilities } from './capabilities.ts';
import { NOT_MOVED, type Capability, type Moved, type TaskView } from './provider.ts';
import { configFor } from './provider-config.ts';
import { selects } from './provider-selection.ts';
import { runsOnTurn } from './turn-policy.ts';
import type { Registry } from './registry.ts';
import { REPOSITORY_SETTINGS_FILE } from './settings/report.ts';
import { resolveSettings } from './settings/resolve.ts';
import type { HostSettings } from './settings/settle.ts';

export interface PlanInput {
  registry: Registry;
  agent: AgentConfig;
  task: TaskView;
  turn: number;
  available: readonly Capability[];
  /** The host's settings layers, as the runner will get them. */
  settings?: HostSettings;
  /** As the runner will get them (see `ProviderRequest.moved` and `focusFiles`). */
  moved?: Moved;
  focusFiles?: readonly string[];
}

/**
 * @example
 * const plan = planReads({ registry, agent, task, turn: 0, available: ['repo:read'] });
 * const resolved = await source.resolve('main', { plan });
 */
export function planReads(input: PlanInput): ReadPlan {
  const { agent, task, registry, settings = {} } = input;
  const { granted } = grantCapabilities({ agent, trusted: task.trusted, available: input.available });
  if (!granted.has('repo:read')) return EMPTY_PLAN;
  const { setups } = resolveSettings({
    registry,
    selection: agent.providers,
    layers: { ...(settings.deployment ? { deployment: settings.deployment } : {}), ...(settings.task ? { task: settings.task } : {}) },
  });
  const plans = registry.providers.flatMap((provider) => {
    if (!selects(agent.providers, provider.name)) return [];
    if (!provider.plan || !(provider.requires.includes('repo:read') || provider.uses?.includes('repo:read'))) return [];
    if (provider.requires.some((capability) => !granted.has(capability))) return [];
    if (!runsOnTurn(provider.turns, input.turn, input.moved ?? NOT_MOVED)) return [];
    const setup = setups[provider.name];
    if (setup?.disabled) return [];
    const config = configFor(provider, setup?.config ?? {});
    return config.success ? [provider.plan({ task, config: config.data, focusFiles: input.focusFiles ?? [] })] : [];
  });
  if (plans.length === 0) return EMPTY_PLAN;
  // The settings file is read whenever a repository reader runs (see settings/settle).
  return mergePlans([...plans, { dirs: [], files: [REPOSITORY_SETTINGS_FILE], walks: [] }]);
}

/**
 * How many of the pull request's changed files the host should list for this turn: the most any
 * provider that will run asks for (`pullRequestFilesNeeded`), with the same selection, settings
 * and gates as the runner; 0 when none does or the run is not granted `github:api`, with which
 * the host lists them.
 */
export function pullRequestFilesNeeded(input: PlanInput): number {
  const { agent, task, registry, settings = {} } = input;
  if (!task.pullRequest) return 0;
  const { granted } = grantCapabilities({ agent, trusted: task.trusted, available: input.available });
  if (!granted.has('github:api')) return 0;
  const { setups } = resolveSettings({
    registry,
    selection: agent.providers,
    layers: { ...(settings.deployment ? { deployment: settings.deployment } : {}), ...(settings.task ? { task: settings.task } : {}) },
  });
  const counts = registry.providers.flatMap((provider) => {
    if (!provider.pullRequestFilesNeeded || !selects(agent.providers, provider.name)) return [];
    if (provider.requires.some((capability) => !granted.has(capability))) return [];
    if (!runsOnTurn(provider.turns, input.turn, input.moved ?? NOT_MOVED)) return [];
    const setup = setups[provider.name];
    if (setup?.disabled) return [];
    const config = configFor(provider, setup?.config ?? {});
    return config.success ? [provider.pullRequestFilesNeeded(config.data)] : [];
  });
  return Math.max(0, ...counts);
}
