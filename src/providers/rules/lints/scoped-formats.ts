/**
 * @module providers/rules/lints/scoped-formats
 * The formats scoped by frontmatter, each with the client that defines it, its globs field and the
 * profile fact that says how that client scopes it.
 */
import type { ClientName } from '../../../context/client.ts';

export const SCOPED_FORMATS: Readonly<Record<string, { client: ClientName; field: string; fact: string }>> = {
  'cursor-rule': { client: 'cursor', field: 'globs', fact: 'cursor.rules' },
  'claude-rule': { client: 'claude-code', field: 'paths', fact: 'claude.rules' },
  'github-instructions': { client: 'copilot', field: 'applyTo', fact: 'copilot.vscode.apply-to' },
};
