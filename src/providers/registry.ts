/**
 * @module providers/registry
 * The provider set every host (Worker, Durable Object, CLI) assembles with.
 */
import { createRegistry, type Registry } from '../context/registry.ts';
import { createRulesProvider } from './rules/provider.ts';

export function createDefaultRegistry(): Registry {
  return createRegistry([createRulesProvider()]);
}
