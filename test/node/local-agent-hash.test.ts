/**
 * The agent a local run assembles with (the built-in without the providers a local run cannot
 * serve) hashes to what the schema makes of it: its hash takes the built-in's form as it is,
 * without parsing (context/agent-catalog `withProviders`), so a difference would show here.
 */
import { describe, expect, it } from 'vitest';
import { agentHash } from '../../src/context/agent-catalog.ts';
import { BUILTIN_AGENTS } from '../../src/context/agents.ts';
import { localProviders } from '../../src/cli/local-turn.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';

describe('a local run\'s agent', () => {
  it('hashes as the schema would make it, for every built-in', async () => {
    const registry = createDefaultRegistry();
    for (const agent of BUILTIN_AGENTS.values()) {
      const local = localProviders(agent, registry);
      expect(Object.isFrozen(local)).toBe(true);
      // A copy is not known to be in the schema's form, so its hash parses it first.
      const copy = structuredClone(local);
      expect(await agentHash(local)).toBe(await agentHash(copy));
    }
  });
});
