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
import { LOAD_STRENGTH, type ClientLoad, type FoundRuleFile, type LoadContext } from '../context/client-load.ts';
import { baseName, below, dirLabel, lazy, never, onChain, start, type ClientProfile } from './profile.ts';

const VSCODE_ROOT_NAMES = new Set(['agents.md', 'claude.md', 'claude.local.md']);
const CLI_NAMES = new Set(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);

function vscode(files: readonly FoundRuleFile[], { cwd }: LoadContext): ClientLoad[] {
  const atWorkspace = cwd === '';
  return files.map((file): ClientLoad => {
    switch (file.format) {
      case 'directory-file': {
        const name = baseName(file.path);
        if (!VSCODE_ROOT_NAMES.has(name.toLowerCase())) return never(`VS Code reads AGENTS.md and CLAUDE.md, not ${name}`, 'copilot.vscode.root');
        if (file.dir === cwd) return start('copilot.vscode.root');
        if (name.toLowerCase() === 'agents.md' && below(file.dir, cwd)) return never('VS Code lists a nested AGENTS.md only with an experimental setting that is off', 'copilot.vscode.nested');
        return never(`VS Code reads ${name} only in the workspace folder (${dirLabel(cwd)})`, 'copilot.vscode.root');
      }
      case 'copilot-instructions':
      case 'claude-memory':
        return atWorkspace ? start('copilot.vscode.root') : never(`VS Code reads it only under the workspace folder (${dirLabel(cwd)})`, 'copilot.vscode.root');
      case 'github-instructions':
        if (!atWorkspace) return never(`VS Code reads .github/instructions only under the workspace folder (${dirLabel(cwd)})`, 'copilot.vscode.apply-to');
        if (file.scope === 'always') return start('copilot.vscode.apply-to');
        return lazy(file.scope === 'globs' ? 'a file attached to the request matches its applyTo, or the model reads it from the index' : 'the model reads it from its instructions index', 'copilot.vscode.apply-to');
      case 'claude-rule':
        return never('whether VS Code reads .claude/rules by default is unsettled', 'copilot.vscode.claude-rules');
      default:
        return never(`VS Code does not read ${baseName(file.path)}`, 'copilot.vscode.root');
    }
  });
}

function cli(files: readonly FoundRuleFile[], { cwd }: LoadContext): ClientLoad[] {
  return files.map((file): ClientLoad => {
    switch (file.format) {
      case 'directory-file': {
        const name = baseName(file.path);
        if (!CLI_NAMES.has(name)) return never(`Copilot CLI reads AGENTS.md, CLAUDE.md and GEMINI.md, not ${name}`, 'copilot.cli.chain');
        if (onChain(file.dir, cwd)) return start('copilot.cli.chain');
        if (below(file.dir, cwd)) return lazy(`it works on a file in ${file.dir}`, 'copilot.cli.nested');
        return never(`Copilot CLI reads instruction files only from the root down to ${dirLabel(cwd)} and below it`, 'copilot.cli.nested');
      }
      case 'copilot-instructions':
      case 'claude-memory':
        return start('copilot.cli.chain');
      case 'github-instructions':
        return file.scope === 'globs' || file.scope === 'always'
          ? lazy('it works on a file its applyTo matches', 'copilot.cli.apply-to')
          : never('Copilot CLI applies a .github/instructions file only by its applyTo', 'copilot.cli.apply-to');
      default:
        return never(`Copilot CLI does not read ${baseName(file.path)}`, 'copilot.cli.no-imports');
    }
  });
}

const HOSTS = { vscode, cli } as const;

export const COPILOT: ClientProfile = {
  name: 'copilot',
  checked: 'VS Code 1.111; runtime of 2026-02-25',
  directoryNames: ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'],
  loads(files, context) {
    if (context.variant === 'vscode' || context.variant === 'cli') return HOSTS[context.variant](files, context);
    // Any host is counted as the weakest of them.
    const byHost = [vscode(files, context), cli(files, context)];
    return files.map((_, i) => {
      const answers = byHost.map((answers) => answers[i]).filter((answer): answer is ClientLoad => answer !== undefined);
      return answers.reduce((weakest, answer) => (LOAD_STRENGTH[answer.load] < LOAD_STRENGTH[weakest.load] ? answer : weakest));
    });
  },
  imports: (_file, _importer, { variant }) => (variant === 'cli' ? never('Copilot CLI follows no @path imports', 'copilot.cli.no-imports') : never('VS Code follows no @path imports', 'copilot.vscode.references')),
};
