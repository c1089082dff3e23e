import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/context/agent-catalog.ts';
import { deepFreeze } from '../../src/lib/deep-freeze.ts';

describe('deepFreeze', () => {
  it('freezes every object a value holds, ends on a cycle, and returns the same value', () => {
    const value: { list: Array<{ n: number }>; self?: unknown } = { list: [{ n: 1 }] };
    value.self = value;
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.list)).toBe(true);
    expect(() => (value.list[0]!.n = 2)).toThrow(TypeError);
  });

  it('leaves the built-in agents unchangeable down to their tools, so their hash is theirs for good', () => {
    const agent = resolveAgent('reviewer');
    if (!agent.ok) throw new Error(agent.error);
    expect(Object.isFrozen(agent.agent.tools)).toBe(true);
    expect(Object.isFrozen(agent.agent.tools[0])).toBe(true);
  });
});
