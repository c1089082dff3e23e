/**
 * @module providers/registry
 * The provider set every host (Worker, Durable Object, CLI) assembles with.
 */
import { createRegistry, type Registry } from '../context/registry.ts';
import { createFreshnessProvider } from './freshness/provider.ts';
import { createHistoryProvider } from './history/provider.ts';
import { createHostProvider } from './host/provider.ts';
import { createMemoryProvider } from './memory/provider.ts';
import { createRulesProvider } from './rules/provider.ts';
import { createSkillsProvider } from './skills/provider.ts';
import { createSystemProvider } from './system/provider.ts';
import { createTaskFactsProvider } from './task-facts/provider.ts';

export function createDefaultRegistry(): Registry {
  return createRegistry([
    createSystemProvider(),
    createHostProvider(),
    createTaskFactsProvider(),
    createFreshnessProvider(),
    createRulesProvider(),
    createSkillsProvider(),
    createMemoryProvider(),
    createHistoryProvider(),
  ]);
}
