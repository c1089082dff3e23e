import { describe, expect, it } from 'vitest';
import { clientFromMcp } from '../../src/clients/mcp-names.ts';
import { FACTS } from '../../src/clients/facts/index.ts';
import { checkCase, factsOf, kib, type FactCase } from './support.ts';

const GEM = 'gemini-cli@5411f113';

const CASES: FactCase[] = [
  {
    fact: 'gemini.names',
    source: `${GEM} memoryDiscovery.test.ts "should keep multiple memory files from the same directory adjacent and in order"`,
    // Gemini reads GEMINI.md even where Groundwork's first name (AGENTS.md) shadows it, and not AGENTS.md.
    files: { 'AGENTS.md': 'agents\n', 'GEMINI.md': 'gemini\n' },
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded', 'AGENTS.md': 'given' },
    details: { 'AGENTS.md': 'Gemini CLI reads GEMINI.md (context.fileName), not AGENTS.md' },
  },
  {
    fact: 'gemini.chain',
    source: `${GEM} memoryDiscovery.test.ts "should traverse upward from trusted root to git root"`,
    files: { 'GEMINI.md': 'root\n', 'packages/GEMINI.md': 'packages\n', 'packages/api/GEMINI.md': 'api\n' },
    cwd: 'packages/api',
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded', 'packages/GEMINI.md': 'loaded', 'packages/api/GEMINI.md': 'loaded' },
  },
  {
    fact: 'gemini.trust',
    source: `${GEM} memoryContextManager.test.ts "should not load environment memory if folder is not trusted"`,
    // Groundwork assumes a trusted folder, and says so in the cell.
    files: { 'GEMINI.md': 'root\n' },
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded' },
    details: { 'GEMINI.md': 'in a trusted folder' },
  },
  {
    fact: 'gemini.jit',
    source: `${GEM} memoryDiscovery.test.ts loadJitSubdirectoryMemory`,
    files: { 'GEMINI.md': 'root\n', 'packages/web/GEMINI.md': 'web\n', 'other/GEMINI.md': 'other\n' },
    cwd: 'packages',
    focus: ['packages/web/src/app.tsx', 'other/x.ts'],
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded', 'packages/web/GEMINI.md': 'given', 'other/GEMINI.md': 'given' },
    details: { 'packages/web/GEMINI.md': 'touches a path in packages/web', 'other/GEMINI.md': 'only for paths inside packages' },
  },
  {
    fact: 'gemini.jit',
    source: `${GEM} (just in time by default since 0.35.0)`,
    files: { 'packages/web/GEMINI.md': 'web\n' },
    focus: ['packages/web/src/app.tsx'],
    client: 'gemini-cli@0.34.0',
    cells: { 'packages/web/GEMINI.md': 'given' },
    details: { 'packages/web/GEMINI.md': 'before 0.35' },
  },
  {
    fact: 'gemini.imports',
    source: `${GEM} memoryImportProcessor.test.ts "should respect max depth limit"`,
    files: { 'GEMINI.md': 'See @./docs/a.md\n', 'docs/a.md': 'a\n', 'packages/web/GEMINI.md': 'See @notes/w.md\n', 'packages/web/notes/w.md': 'w\n' },
    focus: ['packages/web/src/x.ts'],
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded', 'docs/a.md': 'loaded', 'packages/web/notes/w.md': 'given' },
    details: { 'packages/web/notes/w.md': 'touches a path in packages/web' },
  },
  {
    fact: 'gemini.imports',
    source: `${GEM} memoryImportProcessor.ts (a GEMINI.md that imports the AGENTS.md Groundwork gives)`,
    files: { 'AGENTS.md': 'Shared rules.\n', 'GEMINI.md': '@./AGENTS.md\n' },
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded', 'AGENTS.md': 'loaded' },
  },
  {
    fact: 'gemini.no-cap',
    source: `${GEM} memoryDiscovery.ts, memoryImportProcessor.ts`,
    files: { 'GEMINI.md': kib(300) },
    client: 'gemini-cli',
    cells: { 'GEMINI.md': 'loaded' },
  },
  {
    fact: 'gemini.no-formats',
    source: `${GEM} memoryTool.ts DEFAULT_CONTEXT_FILENAME; google-gemini/gemini-cli#28227`,
    files: { 'CLAUDE.md': 'claude\n', '.claude/rules/a.md': 'rule\n', '.github/copilot-instructions.md': 'copilot\n' },
    client: 'gemini-cli',
    cells: { 'CLAUDE.md': 'given', '.claude/rules/a.md': 'given', '.github/copilot-instructions.md': 'given' },
  },
];

describe('the Gemini CLI profile, fact by fact', () => {
  it.each(CASES)('$fact: $client ($source)', async (c) => {
    await checkCase(c, 'gemini-cli');
  });

  it('gemini.mcp: maps clientInfo "gemini-cli-mcp-client" (mcp-client.ts)', () => {
    expect(clientFromMcp({ name: 'gemini-cli-mcp-client', version: '0.61.0' })).toEqual({ name: 'gemini-cli', version: '0.61.0' });
  });

  it('pins every fact of the profile', () => {
    expect([...factsOf(CASES), 'gemini.mcp'].sort()).toEqual(FACTS['gemini-cli'].map((fact) => fact.id).sort());
  });
});
