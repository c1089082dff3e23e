/**
 * @module test/support/settings
 * Assembles a first turn with the real rules and skills providers over an in-memory repository,
 * counting every read, so settings tests can compare a turn against its baseline.
 */
import type { AgentConfig } from '../../src/context/agents.ts';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { createRegistry, type Registry } from '../../src/context/registry.ts';
import type { HostSettings } from '../../src/context/settings/settle.ts';
import { assembleFirstTurn } from '../../src/context/turn.ts';
import type { AssembledTurn } from '../../src/context/turn-schema.ts';
import { createRulesProvider } from '../../src/providers/rules/provider.ts';
import { createSkillsProvider } from '../../src/providers/skills/provider.ts';
import { createTreeSnapshot } from '../../src/sources/tree-snapshot.ts';
import { countingSource, type SourceCalls } from './counting-source.ts';
import { createMemoryTree, type MemoryFile } from './memory-tree.ts';
import { taskView } from './task.ts';

export const SETTINGS_COMMIT = 'c'.repeat(40);

export function rulesAndSkills(): Registry {
  return createRegistry([createRulesProvider(), createSkillsProvider()]);
}

export function agent(name: string): AgentConfig {
  const lookup = resolveAgent(name);
  if (!lookup.ok) throw new Error(lookup.error);
  return lookup.agent;
}

export function skill(name: string, description = `The ${name} skill.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\nHow to ${name}.\n`;
}

export interface AssembleOptions {
  settings?: HostSettings;
  trusted?: boolean;
  agent?: AgentConfig;
  registry?: Registry;
  request?: string;
}

export async function assembleAt(files: Record<string, MemoryFile>, options: AssembleOptions = {}): Promise<{ turn: AssembledTurn; calls: SourceCalls }> {
  const tree = await createMemoryTree(files);
  const { source, calls } = countingSource({
    repository: 'memory:settings',
    resolve: async () => ({ status: 'ok', commit: SETTINGS_COMMIT }),
    snapshot: (commit) => createTreeSnapshot({ repository: 'memory:settings', commit, uri: (path) => `memory:${path}@${commit}`, loader: tree.loader }),
  });
  const turn = await assembleFirstTurn({
    registry: options.registry ?? rulesAndSkills(),
    agent: options.agent ?? agent('entry'),
    available: ['repo:read'],
    snapshot: source.snapshot(SETTINGS_COMMIT),
    task: taskView({ commit: SETTINGS_COMMIT, trusted: options.trusted ?? true, ...(options.request ? { request: options.request } : {}) }),
    turn: 0,
    ...(options.settings ? { settings: options.settings } : {}),
  });
  return { turn, calls };
}

export function outcomeOf(turn: AssembledTurn, name: string) {
  return turn.providers.find((provider) => provider.name === name);
}

export function effectiveOf(turn: AssembledTurn, name: string) {
  return turn.settings?.providers.find((provider) => provider.name === name);
}

export function layerOf(turn: AssembledTurn, layer: 'deployment' | 'repository' | 'task') {
  return turn.settings?.layers.find((report) => report.layer === layer);
}
