import { describe, expect, it } from 'vitest';
import { agentHash } from '../../src/context/agent-catalog.ts';
import { AgentConfigSchema, BUILTIN_AGENTS } from '../../src/context/agents.ts';

// The built-in configurations are not parsed at load (it cost every cold isolate ~7 ms of CPU);
// this is where they are held to the schema instead.
describe('built-in agent configurations', () => {
  it('are each exactly what AgentConfigSchema makes of them', () => {
    expect(BUILTIN_AGENTS.size).toBeGreaterThan(0);
    for (const [name, agent] of BUILTIN_AGENTS) {
      expect(agent.name).toBe(name);
      expect(AgentConfigSchema.parse(agent)).toEqual(agent);
      // agentHash serialises a built-in as it is: the schema's key order, so the same bytes as its parse.
      expect(JSON.stringify(agent)).toBe(JSON.stringify(AgentConfigSchema.parse(agent)));
    }
  });

  it('hash as what the schema makes of them, as a copy of one does', async () => {
    for (const agent of BUILTIN_AGENTS.values()) expect(await agentHash(agent)).toBe(await agentHash({ ...agent, tools: [...agent.tools] }));
  });

  it('are frozen, so no caller can change what the next task gets', () => {
    for (const agent of BUILTIN_AGENTS.values()) expect(Object.isFrozen(agent)).toBe(true);
  });
});
