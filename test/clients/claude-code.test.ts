import { describe, expect, it } from 'vitest';
import { clientFromMcp } from '../../src/clients/mcp-names.ts';
import { FACTS } from '../../src/clients/facts/index.ts';
import { checkCase, factsOf, fileOf, givenPaths, kib, setOf, type FactCase } from './support.ts';

const MEMORY = 'code.claude.com/docs/en/memory';
const AMD = 'claude-code mods/agents-md README';

const CASES: FactCase[] = [
  {
    fact: 'claude.chain',
    source: MEMORY,
    files: { 'CLAUDE.md': 'root\n', '.claude/CLAUDE.md': 'memory\n', 'packages/api/CLAUDE.md': 'api\n', 'AGENTS.md': 'agents\n' },
    cwd: 'packages/api',
    client: 'claude-code',
    cells: { 'CLAUDE.md': 'loaded', '.claude/CLAUDE.md': 'loaded', 'packages/api/CLAUDE.md': 'loaded' },
  },
  {
    fact: 'claude.nested',
    source: `${AMD}; CHANGELOG 2.0.43`,
    files: { 'CLAUDE.md': 'root\n', 'packages/web/CLAUDE.md': 'web\n', 'packages/api/CLAUDE.md': 'api\n' },
    cwd: 'packages/api',
    focus: ['packages/api/src/x.ts', 'packages/web/src/app.tsx'],
    client: 'claude-code',
    cells: { 'packages/api/CLAUDE.md': 'loaded', 'packages/web/CLAUDE.md': 'given' },
    details: { 'packages/web/CLAUDE.md': 'attaches a nested CLAUDE.md only below packages/api' },
  },
  {
    fact: 'claude.nested',
    source: `${AMD}; CHANGELOG 2.0.43`,
    // A CLAUDE.md below the working directory comes when Read touches its directory: Groundwork gives it on a focus path.
    files: { 'AGENTS.md': 'root agents\n', 'packages/web/CLAUDE.md': 'web\n' },
    focus: ['packages/web/src/app.tsx'],
    client: 'claude-code',
    cells: { 'packages/web/CLAUDE.md': 'given' },
    details: { 'packages/web/CLAUDE.md': 'Claude Code loads it only when its Read tool reads a file in packages/web' },
  },
  {
    fact: 'claude.agents-md',
    source: 'code.claude.com/docs/en/changelog#2-1-277',
    // A CLAUDE.md anywhere on the way turns AGENTS.md off: the issue's own repository shape.
    files: { 'AGENTS.md': 'agents\n', 'CLAUDE.md': 'claude\n', 'packages/api/AGENTS.md': 'api agents\n' },
    cwd: 'packages/api',
    client: 'claude-code@2.1.332',
    cells: { 'AGENTS.md': 'given', 'CLAUDE.md': 'loaded', 'packages/api/AGENTS.md': 'given' },
    details: { 'AGENTS.md': 'Claude Code reads CLAUDE.md instead', 'packages/api/AGENTS.md': 'when one is on its way (CLAUDE.md)' },
  },
  {
    fact: 'claude.agents-md',
    source: 'code.claude.com/docs/en/changelog#2-1-277',
    files: { 'AGENTS.md': 'agents\n', 'packages/api/AGENTS.md': 'api agents\n' },
    cwd: 'packages/api',
    client: 'claude-code@2.1.332',
    cells: { 'AGENTS.md': 'loaded', 'packages/api/AGENTS.md': 'loaded' },
    details: { 'AGENTS.md': 'unless a CLAUDE.local.md is on the way' },
  },
  {
    fact: 'claude.agents-md',
    source: 'code.claude.com/docs/en/changelog#2-1-277 (since 2.1.277)',
    files: { 'AGENTS.md': 'agents\n' },
    client: 'claude-code@2.1.240',
    cells: { 'AGENTS.md': 'given' },
    details: { 'AGENTS.md': 'before 2.1.277' },
  },
  {
    fact: 'claude.agents-md-nested',
    source: `${AMD} (tool.call on Read)`,
    files: { 'AGENTS.md': 'agents\n', 'packages/web/AGENTS.md': 'web agents\n', 'packages/api/AGENTS.md': 'api\n', 'packages/api/CLAUDE.md': 'api claude\n' },
    focus: ['packages/web/src/app.tsx', 'packages/api/src/x.ts'],
    client: 'claude-code',
    // From the root no CLAUDE.md is on the way (packages/api's is below it): AGENTS.md loads, nested ones on a Read.
    cells: { 'AGENTS.md': 'loaded', 'packages/web/AGENTS.md': 'given', 'packages/api/AGENTS.md': 'given', 'packages/api/CLAUDE.md': 'lazy' },
    details: { 'packages/web/AGENTS.md': 'only when its Read tool reads a text file in packages/web', 'packages/api/AGENTS.md': 'reads packages/api/CLAUDE.md instead' },
  },
  {
    fact: 'claude.rules',
    source: 'CHANGELOG 2.0.64; code.claude.com/docs/en/memory',
    files: { '.claude/rules/general.md': 'general\n', '.claude/rules/api.md': '---\npaths: packages/api/**\n---\napi rule\n', '.claude/rules/broken.md': '---\npaths: [unclosed\n---\nbroken\n' },
    cwd: 'packages/api',
    client: 'claude-code',
    cells: { '.claude/rules/general.md': 'loaded', '.claude/rules/api.md': 'given', '.claude/rules/broken.md': 'not-seen' },
    details: { '.claude/rules/api.md': 'works with a file its paths match' },
  },
  {
    fact: 'claude.imports',
    source: 'CHANGELOG 0.2.107, 2.1.6; anthropics/claude-code#13914',
    files: { 'packages/api/CLAUDE.md': 'See @notes/a.md and @../../docs/b.md\n', 'packages/api/notes/a.md': 'a\n', 'docs/b.md': 'b\n' },
    cwd: 'packages/api',
    focus: ['packages/api'],
    client: 'claude-code',
    cells: { 'packages/api/CLAUDE.md': 'loaded', 'packages/api/notes/a.md': 'loaded', 'docs/b.md': 'given' },
    details: { 'docs/b.md': 'outside packages/api waits for a one-time approval' },
  },
  {
    fact: 'claude.imports',
    source: 'CHANGELOG 0.2.107 (cloudflare/workers-sdk keeps a CLAUDE.md that says "See @AGENTS.md")',
    // The CLAUDE.md Groundwork shadows imports the AGENTS.md it gives: Claude Code has it already.
    files: { 'AGENTS.md': 'Shared rules.\n', 'CLAUDE.md': 'See @AGENTS.md\n', 'packages/wrangler/AGENTS.md': 'wrangler\n' },
    focus: ['packages/wrangler/src/index.ts'],
    client: 'claude-code',
    cells: { 'CLAUDE.md': 'loaded', 'AGENTS.md': 'loaded', 'packages/wrangler/AGENTS.md': 'given' },
    details: { 'AGENTS.md': 'imported by CLAUDE.md' },
  },
  {
    fact: 'claude.no-cap',
    source: 'CHANGELOG 2.1.169',
    files: { 'CLAUDE.md': kib(200) },
    client: 'claude-code',
    cells: { 'CLAUDE.md': 'loaded' },
  },
  {
    fact: 'claude.no-formats',
    source: `${MEMORY}; anthropics/claude-code#995`,
    files: { 'CLAUDE.md': 'root\n', 'GEMINI.md': 'gemini\n', '.github/copilot-instructions.md': 'copilot\n', '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\ncursor\n' },
    client: 'claude-code',
    cells: { 'CLAUDE.md': 'loaded', 'GEMINI.md': 'not-seen', '.github/copilot-instructions.md': 'given', '.cursor/rules/a.mdc': 'given' },
  },
];

describe('the Claude Code profile, fact by fact', () => {
  it.each(CASES)('$fact: $client ($source)', async (c) => {
    await checkCase(c, 'claude-code');
  });

  it('claude.agents-md: never renders the AGENTS.md Claude Code loaded itself, and names it in one line (issue 50: the file was injected twice)', async () => {
    const set = await setOf({ 'AGENTS.md': 'Run npm test.\n', 'packages/api/AGENTS.md': 'api\n' }, { cwd: 'packages/api', client: 'claude-code@2.1.332' });
    expect(givenPaths(set)).toEqual([]);
    expect(set.given.map((piece) => piece.title)).toEqual(['Rule files Claude Code loads itself']);
    expect(fileOf(set, 'AGENTS.md')).toMatchObject({ verdict: 'loaded-by-client', reason: expect.stringContaining('Claude Code loads it itself at start') });
  });

  it('a directory\'s CLAUDE.md beside its AGENTS.md is never silent, even for none', async () => {
    const set = await setOf({ 'AGENTS.md': 'agents\n', 'CLAUDE.md': 'claude, different\n' });
    expect(fileOf(set, 'CLAUDE.md')).toMatchObject({ verdict: 'shadowed', reason: 'shadowed by AGENTS.md in the same directory' });
    expect(fileOf(set, 'CLAUDE.md').clients?.map((cell) => [cell.client, cell.cell])).toEqual([
      ['none', 'shadowed'],
      ['codex', 'not-seen'],
      ['claude-code', 'loaded'],
      ['gemini-cli', 'not-seen'],
      ['copilot', 'loaded'],
      ['cursor', 'not-seen'],
    ]);
  });

  it('claude.mcp: maps clientInfo "claude-code" with its version (screenpipe/screenpipe#5796)', () => {
    expect(clientFromMcp({ name: 'claude-code', version: '2.1.332' })).toEqual({ name: 'claude-code', version: '2.1.332' });
    expect(clientFromMcp({ name: 'claude-code', version: 'banana' })).toEqual({ name: 'claude-code' });
  });

  it('pins every fact of the profile', () => {
    expect([...factsOf(CASES), 'claude.mcp', 'claude.rules-frontmatter' /* the lints' test pins it: test/node/rules-lints.test.ts */].sort()).toEqual(FACTS['claude-code'].map((fact) => fact.id).sort());
  });
});
