/**
 * @module clients/gemini-cli
 * Gemini CLI (google-gemini/gemini-cli): every `GEMINI.md` from the git root down to the working
 * directory at start (in a trusted folder), more just in time when a file tool touches a path
 * below it, `@path` imports followed; no size cap, no other format.
 * Read against packages/core/src/utils/memoryDiscovery.ts, memoryImportProcessor.ts,
 * tools/jit-context.ts and their tests at google-gemini/gemini-cli@5411f113 (0.56.0-nightly,
 * 2026-08-21); assumed for 0.57-0.61, where no loader change was found.
 */
import type { ClientLoad } from '../context/client-load.ts';
import { atLeast, baseName, below, dirLabel, importerLoad, loadEach, onChain, type ClientProfile, type Fact } from './profile.ts';

const GEM = 'google-gemini/gemini-cli@5411f113:packages/core/src';
const CHECKED = '0.56.0-nightly.20260806 (5411f113)';
const NAME = 'GEMINI.md';
const JIT_TOOLS = 'read_file, list_directory, write_file, replace or read_many_files';
/** Levels of nested imports it resolves below the top file. */
const IMPORT_DEPTH = 5;

const FACTS: readonly Fact[] = [
  { id: 'gemini.names', says: 'Reads GEMINI.md; context.fileName adds names (user settings, or a trusted working directory\'s .gemini/settings.json); every name present in a directory is read. Groundwork assumes the default.', source: `${GEM}/tools/memoryTool.ts#setGeminiMdFilename; utils/memoryDiscovery.test.ts "should keep multiple memory files from the same directory adjacent and in order"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.chain', says: 'At start, in a trusted folder, reads every directory from the git root (boundary marker .git) down to the working directory; nothing below it.', source: `${GEM}/utils/memoryDiscovery.ts#getEnvironmentMemoryPaths; memoryDiscovery.test.ts "should traverse upward from trusted root to git root"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.trust', says: 'An untrusted folder gets no project memory and no just-in-time files (folder trust is on by default since 0.29; headless untrusted runs stop since 0.41). Groundwork assumes a trusted folder.', source: `${GEM}/context/memoryContextManager.ts; memoryContextManager.test.ts "should not load environment memory if folder is not trusted"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.jit', says: `Just in time: after ${JIT_TOOLS} touches a path inside the working directory, reads the names from that path's directory up to the git root and appends them to the tool result; a path outside it loads nothing.`, source: `${GEM}/tools/jit-context.ts, utils/memoryDiscovery.ts#loadJitSubdirectoryMemory; memoryDiscovery.test.ts "should skip JIT memory when target is outside trusted roots"`, checked: CHECKED, confidence: 'test', since: '0.35.0' },
  { id: 'gemini.imports', says: `Follows @path imports (a path starting with ., / or a letter) up to ${IMPORT_DEPTH} levels below the file, inside the git root; failures become an HTML comment nobody sees.`, source: `${GEM}/utils/memoryImportProcessor.ts; memoryImportProcessor.test.ts "should respect max depth limit", "should reject imports outside project root"`, checked: CHECKED, confidence: 'test' },
  { id: 'gemini.no-cap', says: 'No size cap on context files or imports.', source: `${GEM}/utils/memoryDiscovery.ts, memoryImportProcessor.ts, context/memoryContextManager.ts`, checked: CHECKED, confidence: 'code' },
  { id: 'gemini.no-formats', says: 'Reads no other format: AGENTS.md (not a default name), CLAUDE.md, .github instructions, Cursor and Claude rules.', source: `${GEM}/tools/memoryTool.ts#DEFAULT_CONTEXT_FILENAME; google-gemini/gemini-cli#28227`, checked: CHECKED, confidence: 'code' },
  { id: 'gemini.mcp', says: 'Its MCP client says clientInfo.name "gemini-cli-mcp-client".', source: `${GEM}/tools/mcp-client.ts#connectToMcpServer`, checked: CHECKED, confidence: 'code' },
];

export const GEMINI_CLI: ClientProfile = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  checked: '0.56.0',
  mcpNames: ['gemini-cli-mcp-client'],
  directoryNames: [NAME],
  facts: FACTS,
  loads: (files, { cwd, version }) =>
    loadEach(files, (file, earlier): ClientLoad => {
      if (file.format === 'import') {
        const importer = importerLoad(file, earlier);
        if (importer?.load !== 'start' && importer?.load !== 'lazy') return { load: 'never', why: `Gemini CLI does not read ${file.importedBy ?? 'its importer'}`, fact: 'gemini.imports' };
        if (!/^[A-Za-z./]/.test(file.reference ?? '')) return { load: 'never', why: 'Gemini CLI takes an import only when its path starts with ., / or a letter', fact: 'gemini.imports' };
        if ((file.depth ?? 1) > IMPORT_DEPTH) return { load: 'never', why: `Gemini CLI follows imports ${IMPORT_DEPTH} levels deep`, fact: 'gemini.imports' };
        return importer.load === 'lazy' ? { load: 'lazy', when: importer.when, fact: 'gemini.imports' } : { load: 'start', fact: 'gemini.imports' };
      }
      if (file.format !== 'directory-file') return { load: 'never', why: `Gemini CLI reads only ${NAME} files, not ${baseName(file.path)}`, fact: 'gemini.no-formats' };
      if (baseName(file.path) !== NAME) return { load: 'never', why: `Gemini CLI reads ${NAME} (context.fileName), not ${baseName(file.path)}`, fact: 'gemini.names' };
      if (onChain(file.dir, cwd)) return { load: 'start', fact: 'gemini.chain', note: 'in a trusted folder' };
      if (!below(file.dir, cwd)) return { load: 'never', why: `Gemini CLI loads ${NAME} just in time only for paths inside ${dirLabel(cwd)}`, fact: 'gemini.jit' };
      if (!atLeast(version, '0.35.0')) return { load: 'never', why: 'Gemini CLI before 0.35 loads no file just in time', fact: 'gemini.jit' };
      return { load: 'lazy', when: `${JIT_TOOLS} touches a path in ${file.dir}`, fact: 'gemini.jit' };
    }),
};
