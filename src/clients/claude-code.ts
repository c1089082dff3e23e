/**
 * @module clients/claude-code
 * Claude Code (anthropics/claude-code): every `CLAUDE.md` (and `.claude/CLAUDE.md`) from the root
 * down to the working directory at start, a nested one lazily when its Read tool touches that
 * directory; since 2.1.277, `AGENTS.md` instead where no CLAUDE.md is on that way (the default
 * of the `instructionFiles` option, which lives in user settings Groundwork cannot see);
 * `.claude/rules` at start or by `paths`; `@path` imports with their file, inside the working
 * directory. No size cap.
 * The engine is closed source: read against the CHANGELOG (anthropics/claude-code@5cfc0a19, up to
 * 2.1.240), the memory docs, the agents-md plugin's README (anthropics/claude-code@42a37c29) and
 * the 2.1.277 changelog entry; the newest first-party source is older than 2.1.277.
 */
import type { ClientLoad, FoundRuleFile } from '../context/client-load.ts';
import { atLeast, baseName, below, dirLabel, inside, lazy, never, onChain, start, type ClientProfile } from './profile.ts';

/** Levels of imports counted on: third parties say 5 or 4, so the lower. */
const IMPORT_DEPTH = 4;
const AGENTS_SINCE = '2.1.277';
const RULES_SINCE = '2.0.64';

export const CLAUDE_CODE: ClientProfile = {
  name: 'claude-code',
  checked: AGENTS_SINCE,
  directoryNames: ['CLAUDE.md', 'AGENTS.md'],
  loads(files, { cwd, version }) {
    // Each directory's first CLAUDE.md, found once: a lookup per AGENTS.md was quadratic in the files.
    const claudeByDir = new Map<string, FoundRuleFile>();
    for (const file of files) {
      if (file.format === 'directory-file' && !claudeByDir.has(file.dir) && baseName(file.path) === 'CLAUDE.md') claudeByDir.set(file.dir, file);
    }
    const claudeIn = (dir: string) => claudeByDir.get(dir);
    // Any CLAUDE.md on the way to the working directory turns AGENTS.md off for the whole project.
    const claudeOnWay = files.find((file) => (file.format === 'directory-file' && baseName(file.path) === 'CLAUDE.md' && onChain(file.dir, cwd)) || file.format === 'claude-memory');
    const agents = (file: FoundRuleFile): ClientLoad => {
      if (!atLeast(version, AGENTS_SINCE)) return never(`Claude Code before ${AGENTS_SINCE} reads AGENTS.md only through an @AGENTS.md import`, 'claude.agents-md');
      const claimed = claudeIn(file.dir);
      if (claimed) return { load: 'shadowed', by: claimed.path, fact: 'claude.agents-md' };
      if (claudeOnWay) return never(`Claude Code reads CLAUDE.md, not AGENTS.md, when one is on its way (${claudeOnWay.path})`, 'claude.agents-md');
      if (onChain(file.dir, cwd)) return start('claude.agents-md', 'unless a CLAUDE.local.md is on the way, or on Bedrock, Vertex or Foundry');
      if (below(file.dir, cwd)) return lazy(`its Read tool reads a text file in ${file.dir}`, 'claude.agents-md-nested');
      return never(`Claude Code attaches AGENTS.md only below ${dirLabel(cwd)}`, 'claude.agents-md-nested');
    };
    return files.map((file): ClientLoad => {
      switch (file.format) {
        case 'claude-memory':
          return start('claude.chain');
        case 'claude-rule': {
          if (!atLeast(version, RULES_SINCE)) return never(`Claude Code before ${RULES_SINCE} reads no .claude/rules`, 'claude.rules');
          if (file.scope === 'always') return start('claude.rules');
          if (file.scope === 'globs') return lazy(`Claude works with a file its ${file.field ?? 'paths'} match`, 'claude.rules');
          return never('Claude Code skips a rule whose frontmatter it cannot use', 'claude.rules');
        }
        case 'directory-file': {
          const name = baseName(file.path);
          if (name === 'AGENTS.md') return agents(file);
          if (name !== 'CLAUDE.md') return never(`Claude Code reads CLAUDE.md and AGENTS.md, not ${name}`, 'claude.no-formats');
          if (onChain(file.dir, cwd)) return start('claude.chain');
          if (below(file.dir, cwd)) return lazy(`its Read tool reads a file in ${file.dir}`, 'claude.nested');
          return never(`Claude Code attaches a nested CLAUDE.md only below ${dirLabel(cwd)}`, 'claude.nested');
        }
        default:
          return never(`Claude Code does not read ${baseName(file.path)}`, 'claude.no-formats');
      }
    });
  },
  imports(file, importer, { cwd }) {
    if (importer.load !== 'start' && importer.load !== 'lazy') return never(`Claude Code does not read ${file.importedBy ?? 'its importer'}`, 'claude.imports');
    if (!inside(file.path, cwd) || !inside(file.importedBy ?? '', cwd)) return never(`an import outside ${dirLabel(cwd)} waits for a one-time approval (-p never asks)`, 'claude.imports');
    if ((file.depth ?? 1) > IMPORT_DEPTH) return never(`Groundwork counts on Claude Code following ${IMPORT_DEPTH} levels of imports`, 'claude.imports');
    return importer.load === 'lazy' ? lazy(importer.when, 'claude.imports') : start('claude.imports');
  },
};
