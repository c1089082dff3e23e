/**
 * @module cli/local-turn
 * Turn 0 of a local repository at the commit it was opened at, as `groundwork context` prints it
 * and `groundwork freshness` compares it: one assembly, so both see the same sources.
 */
import { withProviders } from '../context/agent-catalog.ts';
import type { AgentConfig } from '../context/agents.ts';
import type { ClientRef } from '../context/client.ts';
import type { Capability } from '../context/provider.ts';
import type { HostFact } from '../context/host-facts.ts';
import { focusPathsOf } from '../context/focus.ts';
import type { Registry } from '../context/registry.ts';
import type { SettingsLayer } from '../context/settings/layer.ts';
import type { TaskView } from '../context/provider.ts';
import type { RuleSetReader } from '../context/rule-set.ts';
import { createRuleSetReader } from '../context/rule-set-reader.ts';
import { assembleFirstTurn } from '../context/turn.ts';
import type { AssembledTurn } from '../context/turn-schema.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import type { OpenedLocal } from './open-local.ts';

export interface LocalTurnInput {
  registry: Registry;
  agent: AgentConfig;
  opened: Extract<OpenedLocal, { ok: true }>;
  /** The opened commit's snapshot; the caller keeps it to read the same commit again. */
  snapshot: Snapshot;
  /** What the user named the commit by. */
  ref: string;
  request: string;
  /** `--path`: focus paths besides the working directory. */
  paths: readonly string[];
  skills: readonly string[];
  trusted: boolean;
  settings: SettingsLayer;
  /** What the host states about this run (`--facts`, or `facts` of the local MCP tool). */
  facts?: readonly HostFact[];
  /** The client that reads the context (`--client`); absent: `none`. */
  client?: ClientRef;
}

/** What a local assembly can serve: the repository on this machine, and nothing of a service (no earlier tasks, no knowledge, no GitHub API). */
export const LOCAL_CAPABILITIES: readonly Capability[] = ['repo:read'];

/**
 * The agent without the providers that need what a local run cannot serve: run, they would only
 * add a notice that they were not read, which a model working locally can do nothing about.
 */
export function localProviders(agent: AgentConfig, registry: Registry): AgentConfig {
  const unavailable = registry.providers.filter((provider) => provider.requires.some((capability) => !LOCAL_CAPABILITIES.includes(capability))).map((provider) => provider.name);
  const { providers } = agent;
  if (providers === 'all') return withProviders(agent, { except: unavailable });
  if (Array.isArray(providers)) return withProviders(agent, providers.filter((name) => !unavailable.includes(name)));
  return withProviders(agent, { except: [...new Set([...providers.except, ...unavailable])] });
}

export function assembleLocalTurn(input: LocalTurnInput): Promise<AssembledTurn> {
  return assembleFirstTurn({
    registry: input.registry,
    agent: input.agent,
    available: LOCAL_CAPABILITIES,
    snapshot: input.snapshot,
    source: input.opened.source,
    task: localTask(input),
    turn: 0,
    settings: { task: input.settings },
  });
}

/** The rule set of the same task at any commit, with the same settings: what `groundwork freshness` diffs. */
export function localRuleSets(input: LocalTurnInput): RuleSetReader | undefined {
  return createRuleSetReader({ registry: input.registry, agent: input.agent, task: localTask(input), available: LOCAL_CAPABILITIES, settings: { task: input.settings } });
}

function localTask(input: LocalTurnInput): TaskView {
  const { opened } = input;
  return {
    request: input.request,
    origin: 'cli',
    repository: opened.source.repository,
    ref: input.ref,
    commit: opened.commit,
    cwd: opened.cwd,
    focusPaths: focusPathsOf(opened.cwd, [input.paths]),
    trusted: input.trusted,
    skills: input.skills,
    agent: input.agent.name,
    ...(input.client && input.client.name !== 'none' ? { client: input.client } : {}),
    ...(input.facts && input.facts.length > 0 ? { facts: input.facts } : {}),
  };
}
