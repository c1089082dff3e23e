/**
 * @module clients/copilot
 * GitHub Copilot, whose hosts load differently:
 * - `copilot:vscode`, VS Code's agent mode (the Local agent and its loader): the direct children
 *   of the workspace folder only (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md), an
 *   `applyTo` file when a file attached to the request matches it, nested AGENTS.md only behind
 *   an experimental setting (off), references only behind a setting (off);
 * - `copilot:cli`, Copilot CLI and the cloud (coding) agent, which run one runtime
 *   (github/copilot-agent-runtime): the root's and the working directory's files and those
 *   between, every name additive, `applyTo` files for matching files, nested files on the path
 *   of a file it works on, no imports;
 * - `copilot`, any of them: a file counts as loaded only as far as every host loads it.
 * For the IDE the working directory is taken as the workspace folder it opened. Sources: VS Code's
 * loader (microsoft/vscode-copilot-chat AutomaticInstructionsCollector, vscode core's
 * computeAutomaticInstructions tests), its docs (2026-07-29), GitHub's docs and the runtime's
 * customization spec (microsoft/vscode@449c67ba:src/vs/sessions/copilot-customizations-spec.md,
 * runtime as of 2026-02-25).
 */
import type { ClientLoad, FoundRuleFile, LoadContext } from '../context/client-load.ts';
import { baseName, below, dirLabel, loadEach, onChain, type ClientProfile, type Fact } from './profile.ts';

const VSC = 'microsoft/vscode-copilot-chat AutomaticInstructionsCollector, AgentInstructionsLocator (newer than 0.42.0)';
const VSC_TEST = 'microsoft/vscode@ceb9ef98:src/vs/workbench/contrib/chat/test/common/promptSyntax/computeAutomaticInstructions.test.ts';
const VSC_DOC = 'microsoft/vscode-docs@024cb9bd:docs/agents/reference/ai-settings.md, @022bf1ae:docs/agent-customization/custom-instructions.md';
const SPEC = 'microsoft/vscode@449c67ba:src/vs/sessions/copilot-customizations-spec.md (runtime as of 2026-02-25)';
const GH_CLI = 'docs.github.com/en/enterprise-cloud@latest/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions';
const VSCODE = 'VS Code 1.111+ (docs of 2026-07-29)';
const RUNTIME = 'runtime of 2026-02-25, CLI docs of 2026';

const FACTS: readonly Fact[] = [
  { id: 'copilot.vscode.root', says: 'VS Code reads AGENTS.md, CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md and .github/copilot-instructions.md among the direct children of the workspace folder (names compared ignoring case), on every request; none above it (chat.useCustomizationsInParentRepositories is off by default) and none below.', source: `${VSC} listAgentInstructions, findFilesInRoots; ${VSC_TEST} "should collect all types of instructions"`, checked: VSCODE, confidence: 'test' },
  { id: 'copilot.vscode.apply-to', says: 'VS Code attaches a .github/instructions file when a file attached to the request matches its applyTo (**, **/* and * always); files its tools read later do not count, but the model may read any listed file from its instructions index.', source: `${VSC} _addApplyingInstructions, matchesAttachedFiles, _buildCustomizationsIndex; ${VSC_TEST} "should match ** pattern for any file"`, checked: VSCODE, confidence: 'test' },
  { id: 'copilot.vscode.nested', says: 'VS Code lists nested AGENTS.md only with chat.useNestedAgentsMdFiles (experimental, off by default), and never attaches them itself.', source: `${VSC} listNestedAgentMDs; ${VSC_DOC}`, checked: VSCODE, confidence: 'code' },
  { id: 'copilot.vscode.references', says: 'VS Code follows #file: references and Markdown links only with chat.includeReferencedInstructions (off by default), never from AGENTS.md or CLAUDE.md, and no @path imports.', source: `${VSC} _addReferencedInstructions; ${VSC_DOC}`, checked: VSCODE, confidence: 'code' },
  { id: 'copilot.vscode.claude-rules', says: 'Whether VS Code reads .claude/rules by default is unsettled (its two docs pages disagree): Groundwork does not count on it.', source: VSC_DOC, checked: VSCODE, confidence: 'unconfirmed' },
  { id: 'copilot.cli.chain', says: 'Copilot CLI and the cloud agent read .github/copilot-instructions.md, AGENTS.md, CLAUDE.md, .claude/CLAUDE.md and GEMINI.md at the repository root, the working directory and the directories between, all of them (deduplicated by content).', source: `${SPEC} §1.1-1.7; ${GH_CLI}`, checked: RUNTIME, confidence: 'doc' },
  { id: 'copilot.cli.nested', says: 'They also read the instruction files of directories on the path of a file they work on below the working directory (which tool calls count is not documented).', source: GH_CLI, checked: RUNTIME, confidence: 'doc' },
  { id: 'copilot.cli.apply-to', says: '.github/instructions/**/*.instructions.md apply to the files their applyTo matches (when they are loaded is not documented).', source: `${SPEC} §1.4; github/docs@042be307:content/copilot/how-tos/configure-custom-instructions/add-repository-instructions.md`, checked: RUNTIME, confidence: 'doc' },
  { id: 'copilot.cli.no-imports', says: 'No import syntax is documented for the runtime; no other format (Cursor, Claude rules) is read.', source: SPEC, checked: RUNTIME, confidence: 'unconfirmed' },
  { id: 'copilot.mcp', says: 'MCP clientInfo.name: VS Code sends its product name ("Visual Studio Code", "Visual Studio Code - Insiders"); Copilot CLI sends "github-copilot-developer".', source: 'microsoft/vscode@c5308376:src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts; github/copilot-cli#1268', checked: `${VSCODE}; CLI 0.0.401-1.0.25`, confidence: '3p' },
];

const VSCODE_ROOT_NAMES = new Set(['agents.md', 'claude.md', 'claude.local.md']);
const CLI_NAMES = new Set(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);

function vscode(files: readonly FoundRuleFile[], { cwd }: LoadContext): ClientLoad[] {
  const atWorkspace = cwd === '';
  return loadEach(files, (file): ClientLoad => {
    switch (file.format) {
      case 'directory-file': {
        const name = baseName(file.path);
        if (!VSCODE_ROOT_NAMES.has(name.toLowerCase())) return { load: 'never', why: `VS Code reads AGENTS.md and CLAUDE.md, not ${name}`, fact: 'copilot.vscode.root' };
        if (file.dir === cwd) return { load: 'start', fact: 'copilot.vscode.root' };
        if (name.toLowerCase() === 'agents.md' && below(file.dir, cwd)) return { load: 'never', why: 'VS Code lists a nested AGENTS.md only with an experimental setting that is off', fact: 'copilot.vscode.nested' };
        return { load: 'never', why: `VS Code reads ${name} only in the workspace folder (${dirLabel(cwd)})`, fact: 'copilot.vscode.root' };
      }
      case 'copilot-instructions':
      case 'claude-memory':
        return atWorkspace ? { load: 'start', fact: 'copilot.vscode.root' } : { load: 'never', why: `VS Code reads it only under the workspace folder (${dirLabel(cwd)})`, fact: 'copilot.vscode.root' };
      case 'github-instructions':
        if (!atWorkspace) return { load: 'never', why: `VS Code reads .github/instructions only under the workspace folder (${dirLabel(cwd)})`, fact: 'copilot.vscode.apply-to' };
        if (file.scope === 'always') return { load: 'start', fact: 'copilot.vscode.apply-to' };
        return { load: 'lazy', when: file.scope === 'globs' ? 'a file attached to the request matches its applyTo, or the model reads it from the index' : 'the model reads it from its instructions index', fact: 'copilot.vscode.apply-to' };
      case 'claude-rule':
        return { load: 'never', why: 'whether VS Code reads .claude/rules by default is unsettled', fact: 'copilot.vscode.claude-rules' };
      case 'import':
        return { load: 'never', why: 'VS Code follows no @path imports', fact: 'copilot.vscode.references' };
      default:
        return { load: 'never', why: `VS Code does not read ${baseName(file.path)}`, fact: 'copilot.vscode.root' };
    }
  });
}

function cli(files: readonly FoundRuleFile[], { cwd }: LoadContext): ClientLoad[] {
  return loadEach(files, (file): ClientLoad => {
    switch (file.format) {
      case 'directory-file': {
        const name = baseName(file.path);
        if (!CLI_NAMES.has(name)) return { load: 'never', why: `Copilot CLI reads AGENTS.md, CLAUDE.md and GEMINI.md, not ${name}`, fact: 'copilot.cli.chain' };
        if (onChain(file.dir, cwd)) return { load: 'start', fact: 'copilot.cli.chain' };
        if (below(file.dir, cwd)) return { load: 'lazy', when: `it works on a file in ${file.dir}`, fact: 'copilot.cli.nested' };
        return { load: 'never', why: `Copilot CLI reads instruction files only from the root down to ${dirLabel(cwd)} and below it`, fact: 'copilot.cli.nested' };
      }
      case 'copilot-instructions':
      case 'claude-memory':
        return { load: 'start', fact: 'copilot.cli.chain' };
      case 'github-instructions':
        return file.scope === 'globs' || file.scope === 'always'
          ? { load: 'lazy', when: 'it works on a file its applyTo matches', fact: 'copilot.cli.apply-to' }
          : { load: 'never', why: 'Copilot CLI applies a .github/instructions file only by its applyTo', fact: 'copilot.cli.apply-to' };
      default:
        return { load: 'never', why: file.format === 'import' ? 'Copilot CLI follows no @path imports' : `Copilot CLI does not read ${baseName(file.path)}`, fact: 'copilot.cli.no-imports' };
    }
  });
}

/** How strongly a load puts a file in front of the model at start: any host is counted as the weakest. */
const STRENGTH: Record<ClientLoad['load'], number> = { start: 4, cut: 3, lazy: 2, shadowed: 1, never: 0 };
const HOSTS = { vscode, cli } as const;

export const COPILOT: ClientProfile = {
  name: 'copilot',
  title: 'Copilot',
  checked: `${VSCODE}; ${RUNTIME}`,
  mcpNames: ['Visual Studio Code', 'Visual Studio Code - Insiders', 'github-copilot-developer'],
  directoryNames: ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'],
  facts: FACTS,
  loads(files, context) {
    if (context.variant === 'vscode' || context.variant === 'cli') return HOSTS[context.variant](files, context);
    const byHost = [vscode(files, context), cli(files, context)];
    return files.map((_, i) => {
      const answers = byHost.map((answers) => answers[i]).filter((answer): answer is ClientLoad => answer !== undefined);
      return answers.reduce((weakest, answer) => (STRENGTH[answer.load] < STRENGTH[weakest.load] ? answer : weakest));
    });
  },
};
