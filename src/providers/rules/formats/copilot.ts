/**
 * @module providers/rules/formats/copilot
 * GitHub Copilot's repository-wide instructions, `.github/copilot-instructions.md`: plain
 * Markdown that applies to every request in the repository.
 */
import type { FormatContext, FormatFinding } from './context.ts';
import { disabled, readRuleFile, readWarnings } from './context.ts';

export const COPILOT_INSTRUCTIONS = '.github/copilot-instructions.md';

export async function findCopilotInstructions(context: FormatContext): Promise<FormatFinding> {
  const listing = await context.snapshot.list('.github', { signal: context.signal });
  if (listing.status === 'failed') throw new Error(`could not list .github: ${listing.reason}`);
  const file = listing.status === 'ok' ? listing.entries.find((entry) => entry.path === COPILOT_INSTRUCTIONS && entry.kind !== 'dir') : undefined;
  if (!file) return { rules: [], skipped: [], notes: [] };
  if (context.disabledBy) return { rules: [], skipped: disabled('copilot-instructions', [file], context.disabledBy), notes: [] };
  const read = await readRuleFile(context, file.path);
  if (!read.ok) return { rules: [], skipped: [{ format: 'copilot-instructions', path: file.path, blob: file.oid, reason: read.reason }], notes: [`left out ${file.path}: ${read.reason}`] };
  return {
    rules: [
      {
        format: 'copilot-instructions',
        path: file.path,
        root: '',
        name: 'copilot-instructions',
        read: read.read,
        body: read.read.text,
        activation: { kind: 'always', why: 'always (repository-wide Copilot instructions)' },
        warnings: readWarnings(read.read, context.maxFileBytes),
      },
    ],
    skipped: [],
    notes: [],
  };
}
