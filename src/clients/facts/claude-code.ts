/**
 * @module clients/facts/claude-code
 * What the Claude Code profile (clients/claude-code) rests on: each fact with its source and the version it
 * was checked for. Kept apart from the profile, so the Worker carries the loader and not the
 * library of citations; the docs' clients table and the profile's tests read them here.
 */
import type { Fact } from '../profile.ts';

const CCL = 'anthropics/claude-code@5cfc0a19:CHANGELOG.md';
const AMD = 'anthropics/claude-code@42a37c29:mods/agents-md/README.md';
const MEMORY = 'code.claude.com/docs/en/memory';
const IMPORT_DEPTH = 4;
const AGENTS_SINCE = '2.1.277';
const RULES_SINCE = '2.0.64';

export const CLAUDE_CODE_FACTS: readonly Fact[] = [
  { id: 'claude.chain', says: 'At start reads CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md in every directory from the root down to the working directory, all of them (none overrides another).', source: `${MEMORY}#how-claude-md-files-load (quoted in anthropics/claude-code#54955); ${AMD}`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.nested', says: 'A CLAUDE.md below the working directory is attached lazily, after its Read tool reads a file in that directory; none beside it.', source: `${AMD} (tool.call on Read); ${CCL} [2.0.43], [2.1.89]`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.agents-md', says: 'Since 2.1.277 (option instructionFiles, default claude-md-or-agents-md, set in user settings only) reads every AGENTS.md from the root down to the working directory at start, only when no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on that way; not on Bedrock, Vertex or Foundry. Groundwork assumes the default.', source: `code.claude.com/docs/en/changelog#2-1-277 (quoted in python-pillow/Pillow#10027); ${AMD} (agents-fallback)`, checked: '2.1.277', confidence: 'doc', since: AGENTS_SINCE },
  { id: 'claude.agents-md-nested', says: 'In that mode a nested AGENTS.md below the working directory is attached after a text Read of a file there, unless a CLAUDE.md in its directory claims it.', source: `${AMD} (tool.call on Read)`, checked: '2.1.277', confidence: 'doc', since: AGENTS_SINCE },
  { id: 'claude.rules', says: '.claude/rules/**/*.md: a rule without paths loads at start; one with paths when Claude works with a matching file; frontmatter it cannot use is skipped without a word.', source: `${CCL} [2.0.64], [2.1.84]; ${MEMORY} (quoted in anthropics/claude-code#15710); anthropics/claude-code#17204`, checked: '2.1.240', confidence: 'doc', since: RULES_SINCE },
  { id: 'claude.rules-frontmatter', says: 'In .claude/rules only paths scopes a rule; globs is not a documented key, and reports disagree on what it does (scoped in one, loaded in every session in a later one), so a rule scoped with globs may load unscoped.', source: `${MEMORY} (paths); anthropics/claude-code#17204 (2026-01, globs works), #45587 (2026-04, globs gives no scoping)`, checked: '2.1.240', confidence: '3p' },
  { id: 'claude.imports', says: `@path imports load with their file, ${IMPORT_DEPTH} or 5 levels deep (third parties disagree: Groundwork counts ${IMPORT_DEPTH}); one outside the working directory, or in a file above it, waits for a one-time approval that -p and the VS Code extension never ask for.`, source: `${CCL} [0.2.107], [2.1.6]; anthropics/claude-code#13914, #79046`, checked: '2.1.251', confidence: '3p' },
  { id: 'claude.no-cap', says: 'No size cap: a long CLAUDE.md only gets a warning.', source: `${CCL} [2.1.169]`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.no-formats', says: 'The names are fixed: no GEMINI.md, AGENTS.override.md, .github instructions or Cursor rules.', source: `${MEMORY}; anthropics/claude-code#995`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.mcp', says: 'Its MCP client says clientInfo.name "claude-code" (observed, no first-party source).', source: 'screenpipe/screenpipe#5796 (Claude Code 2.1.143)', checked: '2.1.143', confidence: '3p' },
];
