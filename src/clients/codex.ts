/**
 * @module clients/codex
 * Codex CLI (openai/codex): `AGENTS.override.md` or `AGENTS.md`, one per directory, from the
 * project root down to the working directory, once at start, under one byte budget spent root
 * first and cut silently. Nothing lazily, no imports, no other format.
 * Read against codex-rs/core/src/agents_md.rs and its tests (openai/codex@3a16fc6c, main of
 * Aug-Sep 2026, releases about 0.153-0.16x; the crate version on main is 0.0.0, so no release
 * number is pinned by the source).
 */
import type { ClientLoad, FoundRuleFile } from '../context/client-load.ts';
import { baseName, dirLabel, never, onChain, start, type ClientProfile } from './profile.ts';

/** In each directory the first present is its file (no fallback names by default). */
const NAMES = ['AGENTS.override.md', 'AGENTS.md'];
/** `project_doc_max_bytes`' default. */
export const CODEX_MAX_BYTES = 32 * 1024;

export const CODEX: ClientProfile = {
  name: 'codex',
  checked: '0.153.4',
  directoryNames: NAMES,
  loads(files, { cwd }) {
    // The chain's files in load order (root first), each directory's first present name.
    const chosen = new Map<string, string>();
    for (const name of NAMES) {
      for (const file of files) {
        if (file.format === 'directory-file' && baseName(file.path) === name && onChain(file.dir, cwd) && !chosen.has(file.dir)) chosen.set(file.dir, file.path);
      }
    }
    const order = [...chosen.entries()].sort(([a], [b]) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    const budgeted = new Map<string, ClientLoad>();
    let left = CODEX_MAX_BYTES;
    const byPath = new Map<string, FoundRuleFile>();
    for (const file of files) if (!byPath.has(file.path)) byPath.set(file.path, file);
    for (const [, path] of order) {
      const file = byPath.get(path);
      if (file?.blank) {
        budgeted.set(path, start('codex.chain', 'white space only'));
        continue;
      }
      if (left <= 0) {
        budgeted.set(path, never(`Codex drops it: the files above it fill its ${CODEX_MAX_BYTES}-byte budget (project_doc_max_bytes)`, 'codex.budget'));
        continue;
      }
      // A size not known (an unreadable file) is taken to spend the rest: the files after it are given.
      const bytes = file?.bytes ?? Number.POSITIVE_INFINITY;
      if (bytes > left) {
        budgeted.set(path, Number.isFinite(bytes) ? { load: 'cut', at: left, fact: 'codex.budget' } : start('codex.chain'));
        left = 0;
        continue;
      }
      left -= bytes;
      budgeted.set(path, start('codex.chain'));
    }
    return files.map((file): ClientLoad => {
      const decided = budgeted.get(file.path);
      if (decided) return decided;
      if (file.format !== 'directory-file') return never(`Codex reads only AGENTS.md files, not ${baseName(file.path)}`, 'codex.no-formats');
      const name = baseName(file.path);
      if (!NAMES.includes(name)) return never(`Codex reads AGENTS.override.md or AGENTS.md, not ${name}`, 'codex.names');
      const first = chosen.get(file.dir);
      if (first !== undefined) return { load: 'shadowed', by: first, fact: 'codex.names' };
      return never(`Codex reads AGENTS.md files only from the root down to ${dirLabel(cwd)}, once at start`, 'codex.chain');
    });
  },
  imports: () => never('Codex follows no @imports', 'codex.no-imports'),
};
