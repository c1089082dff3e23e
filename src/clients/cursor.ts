/**
 * @module clients/cursor
 * Cursor: the project rules in `.cursor/rules/*.mdc` of the workspace (always, by globs, by
 * description, or by hand), the workspace's `AGENTS.md` always and a nested one when the agent
 * works in its subtree. Cursor is closed source and its docs are only partly public: what is not
 * in a first-party page (nested `.cursor/rules`, `.cursorrules`, CLAUDE.md, `@file` references)
 * is not counted on, so Groundwork gives those files. No Cursor version could be pinned. For the
 * IDE the working directory is taken as the workspace folder it opened.
 */
import type { ClientLoad } from '../context/client-load.ts';
import { baseName, below, dirLabel, loadEach, type ClientProfile, type Fact } from './profile.ts';

const RULES = 'www.cursor.com/docs/rules (stored copy, 2026)';
const FORUM = 'forum.cursor.com/t/agents-md-isolated-within-a-subdirectory-is-applied-to-root/160773 (Cursor team answer)';
const CHECKED = 'docs of 2026 (no version pinned)';

const FACTS: readonly Fact[] = [
  { id: 'cursor.rules', says: 'Project rules are .mdc files in .cursor/rules; a plain .md there is ignored. alwaysApply: true is included at the start of the context; globs attach a rule when a matching file is in context; a description alone lets the agent pick it; none of them is manual (@rule-name).', source: `${RULES} ("Rule file structure"); the older docs.cursor.com table as quoted by third parties`, checked: CHECKED, confidence: 'doc' },
  { id: 'cursor.agents-md', says: 'The workspace AGENTS.md applies to everything; a nested AGENTS.md is a rule with the implicit glob <dir>/**, added when the agent reads or edits a file in that subtree.', source: `${RULES}; ${FORUM}`, checked: CHECKED, confidence: 'doc' },
  { id: 'cursor.unconfirmed', says: 'Nested .cursor/rules, the legacy .cursorrules, CLAUDE.md (third parties: CLI only) and @file references in rules are described only by third parties or older docs: Groundwork does not count on them.', source: 'docs.cursor.com/context/rules (older, quoted by third parties); Taiizor/agents-md-cookbook COMPATIBILITY.md', checked: CHECKED, confidence: '3p' },
  { id: 'cursor.mcp', says: 'Its MCP client says clientInfo.name "cursor-vscode" (version always 1.0.0).', source: 'captured initialize messages in third-party repositories (2025-03 to 2026)', checked: CHECKED, confidence: '3p' },
];

export const CURSOR: ClientProfile = {
  name: 'cursor',
  title: 'Cursor',
  checked: CHECKED,
  mcpNames: ['cursor-vscode'],
  directoryNames: ['AGENTS.md'],
  facts: FACTS,
  loads: (files, { cwd }) =>
    loadEach(files, (file): ClientLoad => {
      switch (file.format) {
        case 'cursor-rule': {
          if (file.dir !== cwd) return { load: 'never', why: `whether Cursor reads a .cursor/rules outside the workspace folder's own (${dirLabel(cwd)}) is not confirmed`, fact: 'cursor.unconfirmed' };
          if (!file.path.toLowerCase().endsWith('.mdc')) return { load: 'never', why: 'Cursor ignores a plain .md in .cursor/rules', fact: 'cursor.rules' };
          if (file.scope === 'always') return { load: 'start', fact: 'cursor.rules' };
          if (file.scope === 'globs') return { load: 'lazy', when: 'a file its globs match is in context', fact: 'cursor.rules' };
          if (file.scope === 'requested') return { load: 'lazy', when: 'the agent picks it by its description', fact: 'cursor.rules' };
          return { load: 'never', why: 'a manual rule: Cursor applies it only when @-mentioned', fact: 'cursor.rules' };
        }
        case 'directory-file': {
          const name = baseName(file.path);
          if (name !== 'AGENTS.md') return { load: 'never', why: `Cursor reads AGENTS.md, not ${name}`, fact: name === 'CLAUDE.md' ? 'cursor.unconfirmed' : 'cursor.agents-md' };
          if (file.dir === cwd) return { load: 'start', fact: 'cursor.agents-md' };
          if (below(file.dir, cwd)) return { load: 'lazy', when: `the agent reads or edits a file in ${file.dir}`, fact: 'cursor.agents-md' };
          return { load: 'never', why: `Cursor reads AGENTS.md of its workspace folder (${dirLabel(cwd)}) and below`, fact: 'cursor.agents-md' };
        }
        case 'import':
          return { load: 'never', why: "Cursor's @file references are not confirmed by its docs", fact: 'cursor.unconfirmed' };
        case 'cursorrules':
          return { load: 'never', why: "Cursor's current docs do not list .cursorrules (older ones call it deprecated)", fact: 'cursor.unconfirmed' };
        default:
          return { load: 'never', why: `Cursor does not read ${baseName(file.path)}`, fact: 'cursor.rules' };
      }
    }),
};
