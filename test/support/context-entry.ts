/**
 * @module test/support/context-entry
 * A rules entry as the runner hands it to the renderer (`AGENTS.md` at the test commit).
 */
import type { ContextEntry } from '../../src/context/outcome.ts';
import { COMMIT } from './providers.ts';

export function contextEntry(body: string, overrides: Partial<ContextEntry> = {}): ContextEntry {
  return {
    title: 'AGENTS.md',
    body,
    source: { uri: 'https://github.com/o/r/blob/x/AGENTS.md', path: 'AGENTS.md', revision: COMMIT },
    freshness: 'pinned',
    warnings: [],
    provider: 'rules',
    category: 'rules',
    chars: body.length,
    tokens: 1,
    truncated: false,
    stability: 'commit',
    ...overrides,
  };
}
