/**
 * @module context/read-ahead
 * The merged read plan of the providers that will read the repository on this turn: the same
 * selection, config and gates as the runner, asked before it runs, so the host can hand the
 * plan to the source (which then fetches ahead in as few round trips as it can).
 */
import { EMPTY_PLAN, mergePlans, type ReadPlan } from '../sources/read-plan.ts';
import type { AgentConfig } from './agents.ts';
import { grantCapabilities } from './capabilities.ts';
import type { Capability, TaskView } from './provider.ts';
import type { Registry } from './registry.ts';

export interface PlanInput {
  registry: Registry;
  agent: AgentConfig;
  task: TaskView;
  turn: number;
  available: readonly Capability[];
  configs?: Readonly<Record<string, unknown>>;
}

/**
 * @example
 * const plan = planReads({ registry, agent, task, turn: 0, available: ['repo:read'] });
 * const resolved = await source.resolve('main', { plan });
 */
export function planReads(input: PlanInput): ReadPlan {
  const { agent, task } = input;
  const { granted } = grantCapabilities({ agent, trusted: task.trusted, available: input.available });
  if (!granted.has('repo:read')) return EMPTY_PLAN;
  const plans = input.registry.providers.flatMap((provider) => {
    if (agent.providers !== 'all' && !agent.providers.includes(provider.name)) return [];
    if (!provider.plan || !provider.requires.includes('repo:read')) return [];
    if (provider.requires.some((capability) => !granted.has(capability))) return [];
    if (provider.turns === 'first' && input.turn > 0) return [];
    const config = provider.config.safeParse(input.configs?.[provider.name] ?? {});
    return config.success ? [provider.plan({ task, config: config.data })] : [];
  });
  return plans.length === 0 ? EMPTY_PLAN : mergePlans(plans);
}
