/**
 * @module providers/rules/formats/claude-memory
 * Claude Code's project memory kept in `.claude/`: `.claude/CLAUDE.md`, which Claude Code reads as
 * it reads the root `CLAUDE.md` (https://docs.claude.com/en/docs/claude-code/memory), so it
 * applies to every task and its `@path` imports are followed. Only the root's is read.
 */
import type { FormatContext, FormatFinding } from './context.ts';
import { findRepositoryWideFile } from './repository-wide.ts';

export const CLAUDE_MEMORY = '.claude/CLAUDE.md';

export function findClaudeMemory(context: FormatContext): Promise<FormatFinding> {
  return findRepositoryWideFile(context, { format: 'claude-memory', path: CLAUDE_MEMORY, why: 'always (Claude Code project memory)' });
}
