import { describe, expect, it } from 'vitest';
import { clientFromMcp } from '../../src/clients/mcp-names.ts';
import { FACTS } from '../../src/clients/facts/index.ts';
import { CODEX_MAX_BYTES } from '../../src/clients/codex.ts';
import { restAfter } from '../../src/providers/rules/complement.ts';
import { checkCase, factsOf, fileOf, givenPaths, kib, setOf, type FactCase } from './support.ts';

const AMT = 'openai/codex agents_md_tests.rs';

const CASES: FactCase[] = [
  {
    fact: 'codex.names',
    source: `${AMT} agents_local_md_preferred`,
    files: { 'AGENTS.md': 'root\n', 'packages/api/AGENTS.override.md': 'override\n', 'packages/api/AGENTS.md': 'agents\n', 'packages/api/CLAUDE.md': 'claude\n' },
    cwd: 'packages/api',
    client: 'codex',
    cells: { 'packages/api/AGENTS.override.md': 'loaded', 'packages/api/AGENTS.md': 'shadowed', 'packages/api/CLAUDE.md': 'not-seen' },
    details: { 'packages/api/AGENTS.md': 'packages/api/AGENTS.override.md' },
  },
  {
    fact: 'codex.chain',
    source: `${AMT} concatenates_root_and_cwd_docs`,
    files: { 'AGENTS.md': 'root\n', 'packages/api/AGENTS.md': 'api\n', 'packages/api/src/AGENTS.md': 'below\n', 'packages/web/AGENTS.md': 'web\n' },
    cwd: 'packages/api',
    focus: ['packages/api/src/a.ts', 'packages/web/b.ts'],
    client: 'codex',
    cells: { 'AGENTS.md': 'loaded', 'packages/api/AGENTS.md': 'loaded', 'packages/api/src/AGENTS.md': 'given', 'packages/web/AGENTS.md': 'given' },
    details: { 'packages/web/AGENTS.md': 'only from the root down to packages/api' },
  },
  {
    fact: 'codex.budget',
    source: `${AMT} total_byte_limit_truncates_later_project_docs`,
    files: { 'AGENTS.md': kib(20, 'r'), 'packages/AGENTS.md': kib(20, 'p'), 'packages/api/AGENTS.md': 'api\n' },
    cwd: 'packages/api',
    client: 'codex',
    cells: { 'AGENTS.md': 'loaded', 'packages/AGENTS.md': 'cut', 'packages/api/AGENTS.md': 'given' },
    details: { 'packages/AGENTS.md': `at ${CODEX_MAX_BYTES - 20 * 1024} bytes`, 'packages/api/AGENTS.md': 'fill its 32768-byte budget' },
  },
  {
    fact: 'codex.no-imports',
    source: 'openai/codex agents_md.rs (no import handling)',
    files: { 'CLAUDE.md': 'See @docs/style.md\n', 'docs/style.md': 'style\n' },
    client: 'codex',
    cells: { 'CLAUDE.md': 'given', 'docs/style.md': 'given' },
    details: { 'docs/style.md': 'Codex follows no @imports' },
  },
  {
    fact: 'codex.no-formats',
    source: 'openai/codex agents_md.rs candidate_filenames',
    files: { 'AGENTS.md': 'root\n', '.github/copilot-instructions.md': 'copilot\n', '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\ncursor\n', '.claude/rules/b.md': 'claude rule\n' },
    client: 'codex',
    cells: { 'AGENTS.md': 'loaded', '.github/copilot-instructions.md': 'given', '.cursor/rules/a.mdc': 'given', '.claude/rules/b.md': 'given' },
  },
  {
    fact: 'codex.project-config',
    source: 'developers.openai.com/codex/config-basic',
    // A repository's .codex/config.toml is not read: the defaults stand (a 1-byte budget would cut AGENTS.md).
    files: { '.codex/config.toml': 'project_doc_max_bytes = 1\n', 'AGENTS.md': 'root rules\n' },
    client: 'codex',
    cells: { 'AGENTS.md': 'loaded' },
  },
];

describe('the Codex profile, fact by fact', () => {
  it.each(CASES)('$fact ($source)', async (c) => {
    await checkCase(c, 'codex');
  });

  it('codex.budget: gives the rest after the cut, never the bytes Codex already has (agents_md_tests.rs doc_larger_than_limit_is_truncated)', async () => {
    const head = 'é'.repeat(16_383) + 'a'; // 32,767 bytes: the cut at 32,768 splits the next 'é'
    const set = await setOf({ 'AGENTS.md': `${head}é tail rules\n` }, { client: 'codex' });
    expect(restAfter(`${head}é tail rules\n`, CODEX_MAX_BYTES)).toBe('é tail rules\n');
    expect(restAfter('abcdef', 3)).toBe('def');
    const piece = set.given.find((given) => given.path === 'AGENTS.md');
    expect(piece?.why).toBe('Codex loads only its first 32768 bytes: this is the rest');
    expect(fileOf(set, 'AGENTS.md')).toMatchObject({ verdict: 'applied', reason: expect.stringContaining('Codex loads only its first 32768 bytes') });
    const whole = await setOf({ 'AGENTS.md': 'small\n' }, { client: 'codex' });
    expect(givenPaths(whole)).toEqual([]);
    expect(fileOf(whole, 'AGENTS.md')).toMatchObject({ verdict: 'loaded-by-client', reason: 'Codex loads it itself at start' });
  });

  it('codex.budget: a whitespace-only file costs nothing of the budget', async () => {
    const set = await setOf({ 'AGENTS.md': ' \n'.repeat(20_000), 'packages/AGENTS.md': kib(31) }, { cwd: 'packages', client: 'codex' });
    expect(givenPaths(set)).toEqual([]);
  });

  it('codex.mcp: maps clientInfo "codex-mcp-client" (rmcp_client.rs)', () => {
    expect(clientFromMcp({ name: 'codex-mcp-client', version: '0.153.4' })).toEqual({ name: 'codex', version: '0.153.4' });
  });

  it('pins every fact of the profile', () => {
    expect([...factsOf(CASES), 'codex.mcp'].sort()).toEqual(FACTS.codex.map((fact) => fact.id).sort());
  });
});
