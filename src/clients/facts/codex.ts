/**
 * @module clients/facts/codex
 * What the Codex profile (clients/codex) rests on: each fact with its source and the version it
 * was checked for. Kept apart from the profile, so the Worker carries the loader and not the
 * library of citations; the docs' clients table and the profile's tests read them here.
 */
import type { Fact } from '../profile.ts';
import { CODEX_MAX_BYTES } from '../codex.ts';

const AM = 'openai/codex@3a16fc6c:codex-rs/core/src/agents_md.rs';
const AMT = 'openai/codex@3a16fc6c:codex-rs/core/src/agents_md_tests.rs';
const CHECKED = 'main@3a16fc6c (0.153-0.16x, Aug-Sep 2026)';

export const CODEX_FACTS: readonly Fact[] = [
  { id: 'codex.names', says: 'In each directory the first present of AGENTS.override.md, AGENTS.md (then project_doc_fallback_filenames, empty by default) is its only file.', source: `${AM}#candidate_filenames; ${AMT} agents_local_md_preferred, agents_md_preferred_over_fallbacks`, checked: CHECKED, confidence: 'test' },
  { id: 'codex.chain', says: 'Reads the directories from the project root (nearest .git) down to the working directory, root first, once at start: none below it or beside it, and none later (no lazy loading).', source: `${AM}#agents_md_paths; ${AMT} concatenates_root_and_cwd_docs, finds_doc_in_repo_root; developers.openai.com/codex/guides/agents-md`, checked: CHECKED, confidence: 'test' },
  { id: 'codex.budget', says: 'project_doc_max_bytes (32 KiB) is shared by the chain root first: the file that crosses it is cut to the bytes left and the files after it are dropped, with only a log line; whitespace-only files cost nothing.', source: `${AM}#read_agents_md; ${AMT} total_byte_limit_truncates_later_project_docs, doc_larger_than_limit_is_truncated`, checked: CHECKED, confidence: 'test' },
  { id: 'codex.no-imports', says: 'Follows no imports: the text is read as written, @path and links included.', source: `${AM} (no import handling)`, checked: CHECKED, confidence: 'code' },
  { id: 'codex.no-formats', says: 'Reads no other format: CLAUDE.md, GEMINI.md, .github instructions, Cursor and Claude rules.', source: `${AM}#candidate_filenames`, checked: CHECKED, confidence: 'code' },
  { id: 'codex.project-config', says: "A trusted project's .codex/config.toml may change project_doc_max_bytes and project_doc_fallback_filenames; Groundwork does not read it and assumes the defaults.", source: 'developers.openai.com/codex/config-basic; openai/codex 9ddb267 (#20098, project-layer denylist)', checked: CHECKED, confidence: 'doc' },
  { id: 'codex.mcp', says: 'Its MCP client says clientInfo.name "codex-mcp-client" (title "Codex").', source: 'openai/codex@02beca9f:codex-rs/codex-mcp/src/rmcp_client.rs#mcp_initialize_request_params', checked: CHECKED, confidence: 'code' },
];
