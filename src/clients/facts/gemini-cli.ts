/**
 * @module clients/facts/gemini-cli
 * What the Gemini CLI profile (clients/gemini-cli) rests on: each fact with its source and the version it
 * was checked for. Kept apart from the profile, so the Worker carries the loader and not the
 * library of citations; the docs' clients table and the profile's tests read them here.
 */
import type { Fact } from '../profile.ts';

const GEM = 'google-gemini/gemini-cli@5411f113:packages/core/src';
const CHECKED = '0.56.0-nightly.20260806 (5411f113)';
const JIT_TOOLS = 'read_file, list_directory, write_file, replace or read_many_files';
const IMPORT_DEPTH = 5;

export const GEMINI_CLI_FACTS: readonly Fact[] = [
  { id: 'gemini.names', says: 'Reads GEMINI.md; context.fileName adds names (user settings, or a trusted working directory\'s .gemini/settings.json); every name present in a directory is read. Groundwork assumes the default.', source: `${GEM}/tools/memoryTool.ts#setGeminiMdFilename; utils/memoryDiscovery.test.ts "should keep multiple memory files from the same directory adjacent and in order"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.chain', says: 'At start, in a trusted folder, reads every directory from the git root (boundary marker .git) down to the working directory; nothing below it.', source: `${GEM}/utils/memoryDiscovery.ts#getEnvironmentMemoryPaths; memoryDiscovery.test.ts "should traverse upward from trusted root to git root"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.trust', says: 'An untrusted folder gets no project memory and no just-in-time files (folder trust is on by default since 0.29; headless untrusted runs stop since 0.41). Groundwork assumes a trusted folder.', source: `${GEM}/context/memoryContextManager.ts; memoryContextManager.test.ts "should not load environment memory if folder is not trusted"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.jit', says: `Just in time: after ${JIT_TOOLS} touches a path inside the working directory, reads the names from that path's directory up to the git root and appends them to the tool result; a path outside it loads nothing.`, source: `${GEM}/tools/jit-context.ts, utils/memoryDiscovery.ts#loadJitSubdirectoryMemory; memoryDiscovery.test.ts "should skip JIT memory when target is outside trusted roots"`, checked: CHECKED, confidence: 'test', since: '0.35.0' },
  { id: 'gemini.imports', says: `Follows @path imports (a path starting with ., / or a letter) up to ${IMPORT_DEPTH} levels below the file, inside the git root; failures become an HTML comment nobody sees.`, source: `${GEM}/utils/memoryImportProcessor.ts; memoryImportProcessor.test.ts "should respect max depth limit", "should reject imports outside project root"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.no-cap', says: 'No size cap on context files or imports.', source: `${GEM}/utils/memoryDiscovery.ts, memoryImportProcessor.ts, context/memoryContextManager.ts`, checked: CHECKED, confidence: 'code' },
  { id: 'gemini.no-formats', says: 'Reads no other format: AGENTS.md (not a default name), CLAUDE.md, .github instructions, Cursor and Claude rules.', source: `${GEM}/tools/memoryTool.ts#DEFAULT_CONTEXT_FILENAME; google-gemini/gemini-cli#28227`, checked: CHECKED, confidence: 'code' },
  { id: 'gemini.mcp', says: 'Its MCP client says clientInfo.name "gemini-cli-mcp-client".', source: `${GEM}/tools/mcp-client.ts#connectToMcpServer`, checked: CHECKED, confidence: 'code' },
];
