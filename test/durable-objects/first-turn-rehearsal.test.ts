/**
 * The isolate's turn 0 rehearsal as a Task object asks for it (durable-objects/first-turn-rehearsal,
 * issue 56): after the turn and its reads, the check run's summary of the rehearsed turn, made as
 * the report makes a ready turn's, so the summary's and the rules report's code has run once too.
 */
import { describe, expect, it } from 'vitest';
import { rehearsedSummary } from '../../durable-objects/first-turn-rehearsal.ts';
import { BUILTIN_AGENTS } from '../../src/context/agents.ts';
import { rehearse } from '../../src/context/turn-rehearsal.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';

describe("the first turn's rehearsal", () => {
  it("makes the check run's summary of the rehearsed turn, the rules report and the providers in it", async () => {
    const agent = BUILTIN_AGENTS.get('reviewer');
    if (!agent) throw new Error('no reviewer');
    const made = await rehearse({ registry: createDefaultRegistry(), agent, clients: ['claude-code', 'codex'] });
    const { title, summary } = rehearsedSummary(made);
    expect(title).toMatch(/^Context ready/);
    // The rules report lists the change's rule files, linked, and the providers' table follows.
    for (const path of ['AGENTS.md', 'packages/app/AGENTS.md', '.cursor/rules/style.mdc']) expect(summary).toContain(`/${path}`);
    expect(summary).toContain('### Providers');
    expect(summary).toContain('| rules |');
  });
});
