/**
 * What a first turn prepares while it waits on GitHub (durable-objects/task-assembler `prepare`)
 * builds the zod objects its answers are then checked with: each lazily built check is made there
 * (once per isolate: a runner's earlier file may have made it), and checking an answer afterwards
 * makes none of them again. Nothing is parsed to build
 * them, and the answers are still checked.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as z from 'zod';
import { ClientCellSchema } from '../../src/context/client-load.ts';
import { AppliesToSchema, EntrySchema, SourceSchema } from '../../src/context/entry.ts';
import { RuleVerdictInputSchema } from '../../src/context/rule-verdict.ts';
import { buildAnswerChecks } from '../../src/context/answer-checks.ts';
import { buildReadAheadChecks, parseReadAhead } from '../../src/sources/github/graphql-answer.ts';

const NO_ALIASES = { root: false, dirs: [], files: [], walks: [] };

/** How often each schema's builder is asked for its schema. */
function countBuilds(schemas: readonly z.ZodLazy[]) {
  const spies = schemas.map((schema) => vi.spyOn(schema._zod.def, 'getter'));
  return { calls: () => spies.map((spy) => spy.mock.calls.length), restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

describe('the checks built ahead of the answers', () => {
  it("builds the providers' answer checks once, and checking an answer after it builds none of them", () => {
    const checks = [EntrySchema, SourceSchema, AppliesToSchema, RuleVerdictInputSchema, ClientCellSchema];
    const builds = countBuilds(checks);
    buildAnswerChecks();
    // Built here (1), or already by an earlier file of this runner (0): never asked again below.
    const built = builds.calls();
    expect(built.every((calls) => calls <= 1)).toBe(true);
    const entry = EntrySchema.safeParse({ title: 'AGENTS.md', body: 'Run the tests.', source: { uri: 'memory:AGENTS.md', path: 'AGENTS.md', revision: 'e'.repeat(40) }, freshness: 'pinned' });
    expect(entry.success).toBe(true);
    expect(EntrySchema.safeParse({ title: '', body: 1 }).success).toBe(false);
    expect(RuleVerdictInputSchema.safeParse({ path: 'AGENTS.md', format: 'agents-md', verdict: 'applied', reason: 'on the chain' }).success).toBe(true);
    expect(builds.calls()).toEqual(built);
    builds.restore();
  });

  it("builds the read-ahead answer's checks, and a bad answer is still refused", () => {
    buildReadAheadChecks();
    expect(parseReadAhead('not an answer', NO_ALIASES).status).toBe('unusable');
    expect(parseReadAhead({ repository: null }, NO_ALIASES).status).not.toBe('ok');
  });
});
