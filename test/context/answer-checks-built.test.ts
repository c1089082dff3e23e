/**
 * What a first turn prepares while it waits on GitHub (durable-objects/task-assembler `prepare`)
 * builds the zod objects its read-ahead's answer is then checked with; nothing is parsed to build
 * them, and the answers are still checked. (The providers' answers are read by hand first and need
 * no schema built: test/context/answer-checks.)
 */
import { describe, expect, it } from 'vitest';
import { buildReadAheadChecks, parseReadAhead } from '../../src/sources/github/graphql-answer.ts';

const NO_ALIASES = { root: false, dirs: [], files: [], walks: [] };

describe('the checks built ahead of the answers', () => {
  it("builds the read-ahead answer's checks, and a bad answer is still refused", () => {
    buildReadAheadChecks();
    expect(parseReadAhead('not an answer', NO_ALIASES).status).toBe('unusable');
    expect(parseReadAhead({ repository: null }, NO_ALIASES).status).not.toBe('ok');
  });
});
