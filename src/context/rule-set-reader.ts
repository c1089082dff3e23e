/**
 * @module context/rule-set-reader
 * The rule set of one task at any commit (context/rule-set), as the runner would assemble it
 * there: the agent's selection, the host's settings layers and that commit's own
 * `.groundwork.yml`, the same capability gates; then each selected provider that says what it
 * finds (`Provider.ruleSet`), with its settled config. Built by the host (the runner, the Task
 * object's read-back, the CLI), so freshness diffs two commits without a resolver of its own.
 *
 * A repository whose settings file could not be read, or a provider that could not list or read
 * what it needs, makes the answer `failed` with the reason: a rule set that is not known is
 * never an empty one.
 *
 * @example
 * const reader = createRuleSetReader({ registry, agent, task, available: ['repo:read'], settings });
 * const [was, now] = await Promise.all([reader?.at(pinned, signal), reader?.at(head, signal)]);
 */
import type { ReadPlan } from '../sources/read-plan.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import type { AgentConfig } from './agents.ts';
import { grantCapabilities } from './capabilities.ts';
import type { Capability, TaskView } from './provider.ts';
import { configFor } from './provider-config.ts';
import { selects } from './provider-selection.ts';
import { planReads } from './read-ahead.ts';
import type { Registry } from './registry.ts';
import type { RuleSet, RuleSetReader, RuleSetResult } from './rule-set.ts';
import { settleSettings, type HostSettings } from './settings/settle.ts';

export interface RuleSetReaderInput {
  registry: Registry;
  agent: AgentConfig;
  /** The task as it is now (its focus paths include those posted since turn 0). */
  task: TaskView;
  available: readonly Capability[];
  settings?: HostSettings;
  focusFiles?: readonly string[];
  /** The plan to read another commit with (turn 0's, so the source's cache is shared); made from the task when absent. */
  plan?: ReadPlan;
}

/** Undefined when the task may not read the repository (untrusted, or no `repo:read`) or no selected provider has a rule set. */
export function createRuleSetReader(input: RuleSetReaderInput): RuleSetReader | undefined {
  const { registry, agent, task } = input;
  const { granted } = grantCapabilities({ agent, trusted: task.trusted, available: input.available });
  if (!granted.has('repo:read')) return undefined;
  const providers = registry.providers.filter((provider) => provider.ruleSet && selects(agent.providers, provider.name) && provider.requires.every((capability) => granted.has(capability)));
  if (providers.length === 0) return undefined;
  const focusFiles = input.focusFiles ?? [];
  let plan = input.plan;

  return {
    ...(task.client && task.client.name !== 'none' ? { client: task.client.name } : {}),
    plan: () => (plan ??= planReads({ registry, agent, task, turn: 0, available: input.available, ...(input.settings ? { settings: input.settings } : {}), focusFiles })),
    async at(snapshot: Snapshot, signal: AbortSignal): Promise<RuleSetResult> {
      const settled = await settleSettings({
        registry,
        selection: agent.providers,
        turn: 0,
        ...(input.settings ? { settings: input.settings } : {}),
        repository: { snapshot },
        signal,
      });
      const layer = settled.report.layers.find((candidate) => candidate.layer === 'repository');
      if (layer?.status === 'failed') return { status: 'failed', reason: layer.reason ?? 'the settings file could not be read' };
      const pinned: TaskView = { ...task, commit: snapshot.commit };
      const ruleSet: RuleSet = { commit: snapshot.commit, providers: [], ...(layer?.status === 'applied' && layer.source ? { settings: layer.source } : {}) };
      const found = await Promise.all(
        providers.map(async (provider): Promise<RuleSet['providers'][number] | { failed: string }> => {
          const setup = settled.setups[provider.name];
          if (setup?.disabled) return { provider: provider.name, files: [], reads: [setup.disabled] };
          const config = configFor(provider, setup?.config ?? {});
          if (!config.success) return { provider: provider.name, files: [], reads: [`settings not valid: ${config.error.issues[0]?.message ?? 'invalid'}`] };
          try {
            const answer = await provider.ruleSet?.({ snapshot, task: pinned, focusFiles, config: config.data, signal });
            return { provider: provider.name, files: answer?.files ?? [], reads: answer?.reads ?? [] };
          } catch (error) {
            signal.throwIfAborted();
            return { failed: `${provider.name}: ${error instanceof Error ? error.message : String(error)}` };
          }
        }),
      );
      for (const item of found) {
        if ('failed' in item) return { status: 'failed', reason: item.failed };
        ruleSet.providers.push(item);
      }
      return { status: 'ok', ruleSet };
    },
  };
}
