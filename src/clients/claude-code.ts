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
import { atLeast, baseName, below, dirLabel, importerLoad, inside, loadEach, onChain, type ClientProfile, type Fact } from './profile.ts';

const CCL = 'anthropics/claude-code@5cfc0a19:CHANGELOG.md';
const AMD = 'anthropics/claude-code@42a37c29:mods/agents-md/README.md';
const MEMORY = 'code.claude.com/docs/en/memory';
/** Levels of imports counted on: third parties say 5 or 4, so the lower. */
const IMPORT_DEPTH = 4;
const AGENTS_SINCE = '2.1.277';
const RULES_SINCE = '2.0.64';

const FACTS: readonly Fact[] = [
  { id: 'claude.chain', says: 'At start reads CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md in every directory from the root down to the working directory, all of them (none overrides another).', source: `${MEMORY}#how-claude-md-files-load (quoted in anthropics/claude-code#54955); ${AMD}`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.nested', says: 'A CLAUDE.md below the working directory is attached lazily, after its Read tool reads a file in that directory; none beside it.', source: `${AMD} (tool.call on Read); ${CCL} [2.0.43], [2.1.89]`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.agents-md', says: 'Since 2.1.277 (option instructionFiles, default claude-md-or-agents-md, set in user settings only) reads every AGENTS.md from the root down to the working directory at start, only when no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on that way; not on Bedrock, Vertex or Foundry. Groundwork assumes the default.', source: `code.claude.com/docs/en/changelog#2-1-277 (quoted in python-pillow/Pillow#10027); ${AMD} (agents-fallback)`, checked: '2.1.277', confidence: 'doc', since: AGENTS_SINCE },
  { id: 'claude.agents-md-nested', says: 'In that mode a nested AGENTS.md below the working directory is attached after a text Read of a file there, unless a CLAUDE.md in its directory claims it.', source: `${AMD} (tool.call on Read)`, checked: '2.1.277', confidence: 'doc', since: AGENTS_SINCE },
  { id: 'claude.rules', says: '.claude/rules/**/*.md: a rule without paths loads at start; one with paths when Claude works with a matching file; frontmatter it cannot use is skipped without a word.', source: `${CCL} [2.0.64], [2.1.84]; ${MEMORY} (quoted in anthropics/claude-code#15710); anthropics/claude-code#17204`, checked: '2.1.240', confidence: 'doc', since: RULES_SINCE },
  { id: 'claude.imports', says: `@path imports load with their file, ${IMPORT_DEPTH} or 5 levels deep (third parties disagree: Groundwork counts ${IMPORT_DEPTH}); one outside the working directory, or in a file above it, waits for a one-time approval that -p and the VS Code extension never ask for.`, source: `${CCL} [0.2.107], [2.1.6]; anthropics/claude-code#13914, #79046`, checked: '2.1.251', confidence: '3p' },
  { id: 'claude.no-cap', says: 'No size cap: a long CLAUDE.md only gets a warning.', source: `${CCL} [2.1.169]`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.no-formats', says: 'The names are fixed: no GEMINI.md, AGENTS.override.md, .github instructions or Cursor rules.', source: `${MEMORY}; anthropics/claude-code#995`, checked: '2.1.240', confidence: 'doc' },
  { id: 'claude.mcp', says: 'Its MCP client says clientInfo.name "claude-code" (observed, no first-party source).', source: 'screenpipe/screenpipe#5796 (Claude Code 2.1.143)', checked: '2.1.143', confidence: '3p' },
];

export const CLAUDE_CODE: ClientProfile = {
  name: 'claude-code',
  title: 'Claude Code',
  checked: AGENTS_SINCE,
  mcpNames: ['claude-code'],
  directoryNames: ['CLAUDE.md', 'AGENTS.md'],
  facts: FACTS,
  loads(files, { cwd, version }) {
    const claudeIn = (dir: string) => files.find((file) => file.format === 'directory-file' && file.dir === dir && baseName(file.path) === 'CLAUDE.md');
    // Any CLAUDE.md on the way to the working directory turns AGENTS.md off for the whole project.
    const claudeOnWay = files.find((file) => (file.format === 'directory-file' && baseName(file.path) === 'CLAUDE.md' && onChain(file.dir, cwd)) || file.format === 'claude-memory');
    const agents = (file: FoundRuleFile): ClientLoad => {
      if (!atLeast(version, AGENTS_SINCE)) return { load: 'never', why: `Claude Code before ${AGENTS_SINCE} reads AGENTS.md only through an @AGENTS.md import`, fact: 'claude.agents-md' };
      const claimed = claudeIn(file.dir);
      if (claimed) return { load: 'shadowed', by: claimed.path, fact: 'claude.agents-md' };
      if (claudeOnWay) return { load: 'never', why: `Claude Code reads CLAUDE.md, not AGENTS.md, when one is on its way (${claudeOnWay.path})`, fact: 'claude.agents-md' };
      if (onChain(file.dir, cwd)) return { load: 'start', fact: 'claude.agents-md', note: 'unless a CLAUDE.local.md is on the way, or on Bedrock, Vertex or Foundry' };
      if (below(file.dir, cwd)) return { load: 'lazy', when: `its Read tool reads a text file in ${file.dir}`, fact: 'claude.agents-md-nested' };
      return { load: 'never', why: `Claude Code attaches AGENTS.md only below ${dirLabel(cwd)}`, fact: 'claude.agents-md-nested' };
    };
    return loadEach(files, (file, earlier): ClientLoad => {
      switch (file.format) {
        case 'claude-memory':
          return { load: 'start', fact: 'claude.chain' };
        case 'claude-rule': {
          if (!atLeast(version, RULES_SINCE)) return { load: 'never', why: `Claude Code before ${RULES_SINCE} reads no .claude/rules`, fact: 'claude.rules' };
          if (file.scope === 'always') return { load: 'start', fact: 'claude.rules' };
          if (file.scope === 'globs') return { load: 'lazy', when: `Claude works with a file its ${file.field ?? 'paths'} match`, fact: 'claude.rules' };
          return { load: 'never', why: 'Claude Code skips a rule whose frontmatter it cannot use', fact: 'claude.rules' };
        }
        case 'import': {
          const importer = importerLoad(file, earlier);
          if (importer?.load !== 'start' && importer?.load !== 'lazy') return { load: 'never', why: `Claude Code does not read ${file.importedBy ?? 'its importer'}`, fact: 'claude.imports' };
          if (!inside(file.path, cwd) || !inside(file.importedBy ?? '', cwd)) return { load: 'never', why: `an import outside ${dirLabel(cwd)} waits for a one-time approval (-p never asks)`, fact: 'claude.imports' };
          if ((file.depth ?? 1) > IMPORT_DEPTH) return { load: 'never', why: `Groundwork counts on Claude Code following ${IMPORT_DEPTH} levels of imports`, fact: 'claude.imports' };
          return importer.load === 'lazy' ? { load: 'lazy', when: importer.when, fact: 'claude.imports' } : { load: 'start', fact: 'claude.imports' };
        }
        case 'directory-file': {
          const name = baseName(file.path);
          if (name === 'AGENTS.md') return agents(file);
          if (name !== 'CLAUDE.md') return { load: 'never', why: `Claude Code reads CLAUDE.md and AGENTS.md, not ${name}`, fact: 'claude.no-formats' };
          if (onChain(file.dir, cwd)) return { load: 'start', fact: 'claude.chain' };
          if (below(file.dir, cwd)) return { load: 'lazy', when: `its Read tool reads a file in ${file.dir}`, fact: 'claude.nested' };
          return { load: 'never', why: `Claude Code attaches a nested CLAUDE.md only below ${dirLabel(cwd)}`, fact: 'claude.nested' };
        }
        default:
          return { load: 'never', why: `Claude Code does not read ${baseName(file.path)}`, fact: 'claude.no-formats' };
      }
    });
  },
};
