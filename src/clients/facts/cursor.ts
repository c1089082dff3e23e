/**
 * @module clients/facts/cursor
 * What the Cursor profile (clients/cursor) rests on: each fact with its source and the version it
 * was checked for. Kept apart from the profile, so the Worker carries the loader and not the
 * library of citations; the docs' clients table and the profile's tests read them here.
 */
import type { Fact } from '../profile.ts';

const RULES = 'www.cursor.com/docs/rules (stored copy, 2026)';
const FORUM = 'forum.cursor.com/t/agents-md-isolated-within-a-subdirectory-is-applied-to-root/160773 (Cursor team answer)';
const CHECKED = 'docs of 2026 (no version pinned)';

export const CURSOR_FACTS: readonly Fact[] = [
  { id: 'cursor.rules', says: 'Project rules are .mdc files in .cursor/rules; a plain .md there is ignored. alwaysApply: true is included at the start of the context; globs attach a rule when a matching file is in context; a description alone lets the agent pick it; none of them is manual (@rule-name).', source: `${RULES} ("Rule file structure"); the older docs.cursor.com table as quoted by third parties`, checked: CHECKED, confidence: 'doc' },
  { id: 'cursor.frontmatter', says: 'A rule whose frontmatter does not parse is skipped, and alwaysApply written as the string "true" counts as not set, both without a word; globs is documented as one comma-separated string (a YAML list is not).', source: `${RULES} (examples); stbenjam/skillsaw docs/rules/cursor-rules-valid.md; agnix Cursor rules CUR-003, CUR-008`, checked: CHECKED, confidence: '3p' },
  { id: 'cursor.agents-md', says: 'The workspace AGENTS.md applies to everything; a nested AGENTS.md is a rule with the implicit glob <dir>/**, added when the agent reads or edits a file in that subtree.', source: `${RULES}; ${FORUM}`, checked: CHECKED, confidence: 'doc' },
  { id: 'cursor.unconfirmed', says: 'Nested .cursor/rules, the legacy .cursorrules, CLAUDE.md (third parties: CLI only) and @file references in rules are described only by third parties or older docs: Groundwork does not count on them.', source: 'docs.cursor.com/context/rules (older, quoted by third parties); Taiizor/agents-md-cookbook COMPATIBILITY.md', checked: CHECKED, confidence: '3p' },
  { id: 'cursor.mcp', says: 'Its MCP client says clientInfo.name "cursor-vscode" (version always 1.0.0).', source: 'captured initialize messages in third-party repositories (2025-03 to 2026)', checked: CHECKED, confidence: '3p' },
];
