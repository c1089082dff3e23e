/**
 * @module clients/codex
 * Codex CLI (openai/codex): `AGENTS.override.md` or `AGENTS.md`, one per directory, from the
 * project root down to the working directory, once at start, under one byte budget spent root
 * first and cut silently. Nothing lazily, no imports, no other format.
 * Read against codex-rs/core/src/agents_md.rs and its tests (openai/codex@3a16fc6c, main of
 * Aug-Sep 2026, releases about 0.153-0.16x; the crate version on main is 0.0.0, so no release
 * number is pinned by the source).
 */
import type { ClientLoad } from '../context/client-load.ts';
import { baseName, dirLabel, onChain, type ClientProfile, type Fact } from './profile.ts';

const AM = 'openai/codex@3a16fc6c:codex-rs/core/src/agents_md.rs';
const AMT = 'openai/codex@3a16fc6c:codex-rs/core/src/agents_md_tests.rs';
const CHECKED = 'main@3a16fc6c (0.153-0.16x, Aug-Sep 2026)';

/** In each directory the first present is its file (no fallback names by default). */
const NAMES = ['AGENTS.override.md', 'AGENTS.md'];
/** `project_doc_max_bytes`' default. */
export const CODEX_MAX_BYTES = 32 * 1024;

const FACTS: readonly Fact[] = [
  { id: 'codex.names', says: 'In each directory the first present of AGENTS.override.md, AGENTS.md (then project_doc_fallback_filenames, empty by default) is its only file.', source: `${AM}#candidate_filenames; ${AMT} agents_local_md_preferred, agents_md_preferred_over_fallbacks`, checked: CHECKED, confidence: 'test' },
  { id: 'codex.chain', says: 'Reads the directories from the project root (nearest .git) down to the working directory, root first, once at start: none below it or beside it, and none later (no lazy loading).', source: `${AM}#agents_md_paths; ${AMT} concatenates_root_and_cwd_docs, finds_doc_in_repo_root; developers.openai.com/codex/guides/agents-md`, checked: CHECKED, confidence: 'test' },
  { id: 'codex.budget', says: 'project_doc_max_bytes (32 KiB) is shared by the chain root first: the file that crosses it is cut to the bytes left and the files after it are dropped, with only a log line; whitespace-only files cost nothing.', source: `${AM}#read_agents_md; ${AMT} total_byte_limit_truncates_later_project_docs, doc_larger_than_limit_is_truncated`, checked: CHECKED, confidence: 'test' },
  { id: 'codex.no-imports', says: 'Follows no imports: the text is read as written, @path and links included.', source: `${AM} (no import handling)`, checked: CHECKED, confidence: 'code' },
  { id: 'codex.no-formats', says: 'Reads no other format: CLAUDE.md, GEMINI.md, .github instructions, Cursor and Claude rules.', source: `${AM}#candidate_filenames`, checked: CHECKED, confidence: 'code' },
  { id: 'codex.project-config', says: "A trusted project's .codex/config.toml may change project_doc_max_bytes and project_doc_fallback_filenames; Groundwork does not read it and assumes the defaults.", source: 'developers.openai.com/codex/config-basic; openai/codex 9ddb267 (#20098, project-layer denylist)', checked: CHECKED, confidence: 'doc' },
  { id: 'codex.mcp', says: 'Its MCP client says clientInfo.name "codex-mcp-client" (title "Codex").', source: 'openai/codex@02beca9f:codex-rs/codex-mcp/src/rmcp_client.rs#mcp_initialize_request_params', checked: CHECKED, confidence: 'code' },
];

export const CODEX: ClientProfile = {
  name: 'codex',
  title: 'Codex',
  checked: '0.153.4',
  mcpNames: ['codex-mcp-client'],
  directoryNames: NAMES,
  facts: FACTS,
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
    for (const [, path] of order) {
      const file = files.find((candidate) => candidate.path === path);
      if (file?.blank) {
        budgeted.set(path, { load: 'start', fact: 'codex.chain', note: 'white space only' });
        continue;
      }
      if (left <= 0) {
        budgeted.set(path, { load: 'never', why: `Codex drops it: the files above it fill its ${CODEX_MAX_BYTES}-byte budget (project_doc_max_bytes)`, fact: 'codex.budget' });
        continue;
      }
      // A size not known (an unreadable file) is taken to spend the rest: the files after it are given.
      const bytes = file?.bytes ?? Number.POSITIVE_INFINITY;
      if (bytes > left) {
        budgeted.set(path, Number.isFinite(bytes) ? { load: 'cut', at: left, fact: 'codex.budget' } : { load: 'start', fact: 'codex.chain' });
        left = 0;
        continue;
      }
      left -= bytes;
      budgeted.set(path, { load: 'start', fact: 'codex.chain' });
    }
    return files.map((file): ClientLoad => {
      const decided = budgeted.get(file.path);
      if (decided) return decided;
      if (file.format === 'import') return { load: 'never', why: 'Codex follows no @imports', fact: 'codex.no-imports' };
      if (file.format !== 'directory-file') return { load: 'never', why: `Codex reads only AGENTS.md files, not ${baseName(file.path)}`, fact: 'codex.no-formats' };
      const name = baseName(file.path);
      if (!NAMES.includes(name)) return { load: 'never', why: `Codex reads AGENTS.override.md or AGENTS.md, not ${name}`, fact: 'codex.names' };
      const first = chosen.get(file.dir);
      if (first !== undefined) return { load: 'shadowed', by: first, fact: 'codex.names' };
      return { load: 'never', why: `Codex reads AGENTS.md files only from the root down to ${dirLabel(cwd)}, once at start`, fact: 'codex.chain' };
    });
  },
};
