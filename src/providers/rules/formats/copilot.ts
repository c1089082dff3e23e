/**
 * @module providers/rules/formats/copilot
 * GitHub Copilot's repository-wide instructions, `.github/copilot-instructions.md`: plain
 * Markdown that applies to every request in the repository.
 */
import type { FormatContext, FormatFinding } from './context.ts';
import { findRepositoryWideFile } from './repository-wide.ts';

export const COPILOT_INSTRUCTIONS = '.github/copilot-instructions.md';

export function findCopilotInstructions(context: FormatContext): Promise<FormatFinding> {
  return findRepositoryWideFile(context, { format: 'copilot-instructions', path: COPILOT_INSTRUCTIONS, why: 'always (repository-wide Copilot instructions)' });
}
