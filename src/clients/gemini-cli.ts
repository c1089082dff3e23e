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
import { atLeast, baseName, below, dirLabel, lazy, never, onChain, start, type ClientProfile } from './profile.ts';

const NAME = 'GEMINI.md';
const JIT_TOOLS = 'read_file, list_directory, write_file, replace or read_many_files';
/** Levels of nested imports it resolves below the top file. */
const IMPORT_DEPTH = 5;

export const GEMINI_CLI: ClientProfile = {
  name: 'gemini-cli',
  checked: '0.56.0',
  directoryNames: [NAME],
  loads: (files, { cwd, version }) =>
    files.map((file): ClientLoad => {
      if (file.format !== 'directory-file') return never(`Gemini CLI reads only ${NAME} files, not ${baseName(file.path)}`, 'gemini.no-formats');
      if (baseName(file.path) !== NAME) return never(`Gemini CLI reads ${NAME} (context.fileName), not ${baseName(file.path)}`, 'gemini.names');
      if (onChain(file.dir, cwd)) return start('gemini.chain', 'in a trusted folder');
      if (!below(file.dir, cwd)) return never(`Gemini CLI loads ${NAME} just in time only for paths inside ${dirLabel(cwd)}`, 'gemini.jit');
      if (!atLeast(version, '0.35.0')) return never('Gemini CLI before 0.35 loads no file just in time', 'gemini.jit');
      return lazy(`${JIT_TOOLS} touches a path in ${file.dir}`, 'gemini.jit');
    }),
  imports(file, importer) {
    if (importer.load !== 'start' && importer.load !== 'lazy') return never(`Gemini CLI does not read ${file.importedBy ?? 'its importer'}`, 'gemini.imports');
    if (!/^[A-Za-z./]/.test(file.reference ?? '')) return never('Gemini CLI takes an import only when its path starts with ., / or a letter', 'gemini.imports');
    if ((file.depth ?? 1) > IMPORT_DEPTH) return never(`Gemini CLI follows imports ${IMPORT_DEPTH} levels deep`, 'gemini.imports');
    return importer.load === 'lazy' ? lazy(importer.when, 'gemini.imports') : start('gemini.imports');
  },
};
