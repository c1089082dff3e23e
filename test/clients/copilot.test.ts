import { describe, expect, it } from 'vitest';
import { clientFromMcp } from '../../src/clients/mcp-names.ts';
import { FACTS } from '../../src/clients/facts/index.ts';
import { checkCase, factsOf, type FactCase } from './support.ts';

const VSC = 'vscode computeAutomaticInstructions.test.ts';
const SPEC = 'copilot-customizations-spec.md (runtime of 2026-02-25)';

const MONOREPO = {
  'AGENTS.md': 'root agents\n',
  'CLAUDE.md': 'root claude\n',
  '.github/copilot-instructions.md': 'copilot\n',
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nts\n',
  '.github/instructions/all.instructions.md': '---\napplyTo: "**"\n---\nall\n',
  'packages/api/AGENTS.md': 'api agents\n',
  'packages/api/GEMINI.md': 'api gemini\n',
};

const CASES: FactCase[] = [
  {
    fact: 'copilot.vscode.root',
    source: `${VSC} "should collect all types of instructions"`,
    files: MONOREPO,
    client: 'copilot:vscode',
    cells: { 'AGENTS.md': 'loaded', 'CLAUDE.md': 'loaded', '.github/copilot-instructions.md': 'loaded' },
  },
  {
    fact: 'copilot.vscode.root',
    source: 'vscode-copilot-chat getWorkspaceFolderRoots (no parent walk by default)',
    files: MONOREPO,
    cwd: 'packages/api',
    client: 'copilot:vscode',
    cells: { 'AGENTS.md': 'given', '.github/copilot-instructions.md': 'given', 'packages/api/AGENTS.md': 'loaded' },
    details: { 'AGENTS.md': 'only in the workspace folder (packages/api)' },
  },
  {
    fact: 'copilot.vscode.apply-to',
    source: `${VSC} "should match ** pattern for any file"`,
    files: MONOREPO,
    focus: ['src/a.ts'],
    client: 'copilot:vscode',
    cells: { '.github/instructions/all.instructions.md': 'loaded', '.github/instructions/ts.instructions.md': 'given' },
    details: { '.github/instructions/ts.instructions.md': 'a file attached to the request matches its applyTo' },
  },
  {
    fact: 'copilot.vscode.nested',
    source: 'vscode-copilot-chat listNestedAgentMDs; ai-settings chat.useNestedAgentsMdFiles (off)',
    files: MONOREPO,
    focus: ['packages/api/src/x.ts'],
    client: 'copilot:vscode',
    cells: { 'packages/api/AGENTS.md': 'given' },
    details: { 'packages/api/AGENTS.md': 'experimental setting that is off' },
  },
  {
    fact: 'copilot.vscode.references',
    source: 'vscode-copilot-chat _addReferencedInstructions (chat.includeReferencedInstructions off)',
    files: { 'CLAUDE.md': 'See @docs/a.md\n', 'docs/a.md': 'a\n' },
    client: 'copilot:vscode',
    cells: { 'CLAUDE.md': 'loaded', 'docs/a.md': 'given' },
  },
  {
    fact: 'copilot.vscode.claude-rules',
    source: 'vscode-docs custom-instructions.md vs ai-settings.md (they disagree)',
    files: { '.claude/rules/a.md': 'rule\n' },
    client: 'copilot:vscode',
    cells: { '.claude/rules/a.md': 'given' },
  },
  {
    fact: 'copilot.cli.chain',
    source: `${SPEC} §1.1-1.7`,
    // Additive: every name on the way loads, GEMINI.md beside AGENTS.md too.
    files: MONOREPO,
    cwd: 'packages/api',
    client: 'copilot:cli',
    cells: { 'AGENTS.md': 'loaded', 'CLAUDE.md': 'loaded', '.github/copilot-instructions.md': 'loaded', 'packages/api/AGENTS.md': 'loaded', 'packages/api/GEMINI.md': 'loaded' },
  },
  {
    fact: 'copilot.cli.nested',
    source: 'docs.github.com copilot-cli add-custom-instructions',
    files: MONOREPO,
    focus: ['packages/api/src/x.ts'],
    client: 'copilot:cli',
    cells: { 'packages/api/AGENTS.md': 'given' },
    details: { 'packages/api/AGENTS.md': 'only when it works on a file in packages/api' },
  },
  {
    fact: 'copilot.cli.apply-to',
    source: `${SPEC} §1.4`,
    files: MONOREPO,
    focus: ['src/a.ts'],
    client: 'copilot:cli',
    cells: { '.github/instructions/all.instructions.md': 'given', '.github/instructions/ts.instructions.md': 'given' },
  },
  {
    fact: 'copilot.cli.no-imports',
    source: SPEC,
    files: { 'CLAUDE.md': 'See @docs/a.md\n', 'docs/a.md': 'a\n', '.cursor/rules/x.mdc': '---\nalwaysApply: true\n---\nx\n' },
    client: 'copilot:cli',
    cells: { 'CLAUDE.md': 'loaded', 'docs/a.md': 'given', '.cursor/rules/x.mdc': 'given' },
  },
];

describe('the Copilot profile, fact by fact and host by host', () => {
  it.each(CASES)('$fact: $client ($source)', async (c) => {
    await checkCase(c, 'copilot');
  });

  it('copilot (any host) counts a file as loaded only as far as every host loads it', async () => {
    // VS Code loads the root ** applyTo file at start, the CLI only for matching files: any host gives it.
    await checkCase({ fact: 'copilot', source: 'both hosts', files: MONOREPO, focus: ['src/a.ts'], client: 'copilot', cells: { 'AGENTS.md': 'loaded', '.github/instructions/all.instructions.md': 'given', '.github/instructions/ts.instructions.md': 'given' } }, 'copilot');
  });

  it('copilot.mcp: maps VS Code and the CLI to their hosts (mcpServerRequestHandler.ts; github/copilot-cli#1268)', () => {
    expect(clientFromMcp({ name: 'Visual Studio Code', version: '1.140.0' })).toEqual({ name: 'copilot', variant: 'vscode' });
    expect(clientFromMcp({ name: 'github-copilot-developer', version: '1.0.25' })).toEqual({ name: 'copilot', variant: 'cli' });
    expect(clientFromMcp({ name: 'VSCodium', version: '1.140.0' })).toBeUndefined();
  });

  it('pins every fact of the profile', () => {
    expect([...factsOf(CASES), 'copilot.mcp', 'copilot.vscode.apply-to-string' /* the lints' test pins it: test/node/rules-lints.test.ts */].sort()).toEqual(FACTS.copilot.map((fact) => fact.id).sort());
  });
});
