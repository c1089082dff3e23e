/**
 * @module clients/facts/copilot
 * What the Copilot profile (clients/copilot) rests on: each fact with its source and the version it
 * was checked for. Kept apart from the profile, so the Worker carries the loader and not the
 * library of citations; the docs' clients table and the profile's tests read them here.
 */
import type { Fact } from '../profile.ts';

const VSC = 'microsoft/vscode-copilot-chat AutomaticInstructionsCollector, AgentInstructionsLocator (newer than 0.42.0)';
const VSC_TEST = 'microsoft/vscode@ceb9ef98:src/vs/workbench/contrib/chat/test/common/promptSyntax/computeAutomaticInstructions.test.ts';
const VSC_DOC = 'microsoft/vscode-docs@024cb9bd:docs/agents/reference/ai-settings.md, @022bf1ae:docs/agent-customization/custom-instructions.md';
const SPEC = 'microsoft/vscode@449c67ba:src/vs/sessions/copilot-customizations-spec.md (runtime as of 2026-02-25)';
const GH_CLI = 'docs.github.com/en/enterprise-cloud@latest/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions';
const VSCODE = 'VS Code 1.111+ (docs of 2026-07-29)';
const RUNTIME = 'runtime of 2026-02-25, CLI docs of 2026';

export const COPILOT_FACTS: readonly Fact[] = [
  { id: 'copilot.vscode.root', says: 'VS Code reads AGENTS.md, CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md and .github/copilot-instructions.md among the direct children of the workspace folder (names compared ignoring case), on every request; none above it (chat.useCustomizationsInParentRepositories is off by default) and none below.', source: `${VSC} listAgentInstructions, findFilesInRoots; ${VSC_TEST} "should collect all types of instructions"`, checked: VSCODE, confidence: 'test' },
  { id: 'copilot.vscode.apply-to', says: 'VS Code attaches a .github/instructions file when a file attached to the request matches its applyTo (**, **/* and * always); files its tools read later do not count, but the model may read any listed file from its instructions index.', source: `${VSC} _addApplyingInstructions, matchesAttachedFiles, _buildCustomizationsIndex; ${VSC_TEST} "should match ** pattern for any file"`, checked: VSCODE, confidence: 'test' },
  { id: 'copilot.vscode.apply-to-string', says: 'VS Code reads applyTo only as a string: a YAML list yields no pattern and the file is never attached (it stays in the index); a pattern starting with / is matched as an absolute path on disk; a header whose closing --- is missing takes the whole file, leaving no instructions; none of this is said in chat.', source: `microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax/promptFileParser.ts PromptHeader.applyTo (getStringAttribute), PromptFileParser.parse; ${VSC} matchesAttachedFiles`, checked: VSCODE, confidence: 'code' },
  { id: 'copilot.vscode.nested', says: 'VS Code lists nested AGENTS.md only with chat.useNestedAgentsMdFiles (experimental, off by default), and never attaches them itself.', source: `${VSC} listNestedAgentMDs; ${VSC_DOC}`, checked: VSCODE, confidence: 'code' },
  { id: 'copilot.vscode.references', says: 'VS Code follows #file: references and Markdown links only with chat.includeReferencedInstructions (off by default), never from AGENTS.md or CLAUDE.md, and no @path imports.', source: `${VSC} _addReferencedInstructions; ${VSC_DOC}`, checked: VSCODE, confidence: 'code' },
  { id: 'copilot.vscode.claude-rules', says: 'Whether VS Code reads .claude/rules by default is unsettled (its two docs pages disagree): Groundwork does not count on it.', source: VSC_DOC, checked: VSCODE, confidence: 'unconfirmed' },
  { id: 'copilot.cli.chain', says: 'Copilot CLI and the cloud agent read .github/copilot-instructions.md, AGENTS.md, CLAUDE.md, .claude/CLAUDE.md and GEMINI.md at the repository root, the working directory and the directories between, all of them (deduplicated by content).', source: `${SPEC} §1.1-1.7; ${GH_CLI}`, checked: RUNTIME, confidence: 'doc' },
  { id: 'copilot.cli.nested', says: 'They also read the instruction files of directories on the path of a file they work on below the working directory (which tool calls count is not documented).', source: GH_CLI, checked: RUNTIME, confidence: 'doc' },
  { id: 'copilot.cli.apply-to', says: '.github/instructions/**/*.instructions.md apply to the files their applyTo matches (when they are loaded is not documented).', source: `${SPEC} §1.4; github/docs@042be307:content/copilot/how-tos/configure-custom-instructions/add-repository-instructions.md`, checked: RUNTIME, confidence: 'doc' },
  { id: 'copilot.cli.no-imports', says: 'No import syntax is documented for the runtime; no other format (Cursor, Claude rules) is read.', source: SPEC, checked: RUNTIME, confidence: 'unconfirmed' },
  { id: 'copilot.mcp', says: 'MCP clientInfo.name: VS Code sends its product name ("Visual Studio Code", "Visual Studio Code - Insiders"); Copilot CLI sends "github-copilot-developer".', source: 'microsoft/vscode@c5308376:src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts; github/copilot-cli#1268', checked: `${VSCODE}; CLI 0.0.401-1.0.25`, confidence: '3p' },
];
