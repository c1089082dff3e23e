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
import { baseName, below, dirLabel, lazy, never, start, type ClientProfile } from './profile.ts';


export const CURSOR: ClientProfile = {
  name: 'cursor',
  checked: 'no version pinned',
  directoryNames: ['AGENTS.md'],
  loads: (files, { cwd }) =>
    files.map((file): ClientLoad => {
      switch (file.format) {
        case 'cursor-rule': {
          if (file.dir !== cwd) return never(`whether Cursor reads a .cursor/rules outside the workspace folder's own (${dirLabel(cwd)}) is not confirmed`, 'cursor.unconfirmed');
          if (!file.path.toLowerCase().endsWith('.mdc')) return never('Cursor ignores a plain .md in .cursor/rules', 'cursor.rules');
          if (file.scope === 'always') return start('cursor.rules');
          if (file.scope === 'globs') return lazy('a file its globs match is in context', 'cursor.rules');
          if (file.scope === 'requested') return lazy('the agent picks it by its description', 'cursor.rules');
          return never('a manual rule: Cursor applies it only when @-mentioned', 'cursor.rules');
        }
        case 'directory-file': {
          const name = baseName(file.path);
          if (name !== 'AGENTS.md') return { load: 'never', why: `Cursor reads AGENTS.md, not ${name}`, fact: name === 'CLAUDE.md' ? 'cursor.unconfirmed' : 'cursor.agents-md' };
          if (file.dir === cwd) return start('cursor.agents-md');
          if (below(file.dir, cwd)) return lazy(`the agent reads or edits a file in ${file.dir}`, 'cursor.agents-md');
          return never(`Cursor reads AGENTS.md of its workspace folder (${dirLabel(cwd)}) and below`, 'cursor.agents-md');
        }
        case 'cursorrules':
          return never("Cursor's current docs do not list .cursorrules (older ones call it deprecated)", 'cursor.unconfirmed');
        default:
          return never(`Cursor does not read ${baseName(file.path)}`, 'cursor.rules');
      }
    }),
  imports: () => never("Cursor's @file references are not confirmed by its docs", 'cursor.unconfirmed'),
};
