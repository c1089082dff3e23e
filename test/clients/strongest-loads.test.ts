/**
 * providers/rules/client-loads `strongestLoads`: what a client started in any of a set of
 * directories loads, per file, as the rules matrix's lints read it (`ever`). Held over generated
 * trees (mixed directory files, every format, imports, shadowing) to the plain definition: each
 * directory's `clientLoads`, the strongest answer kept, the first of equal strength in the
 * directories' order; and at a large monorepo's scale, hundreds of directories.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_NAMES, NO_CLIENT, type ClientName, type ClientRef } from '../../src/context/client.ts';
import { LOAD_STRENGTH, type ClientLoad, type FoundRuleFile } from '../../src/context/client-load.ts';
import type { RuleVerdictInput } from '../../src/context/rule-verdict.ts';
import { clientLoads, strongestLoads, type LoadsByClient } from '../../src/providers/rules/client-loads.ts';
import { RulesConfigSchema } from '../../src/providers/rules/config.ts';
import { gatherRules, resolve } from '../../src/providers/rules/rule-set.ts';
import { memorySnapshot, type MemoryFile } from '../support/memory-tree.ts';
import { clientRefOf } from './support.ts';

const DIRS = ['', 'a', 'a/b', 'c', 'c/d'];
const NAMES = ['AGENTS.md', 'AGENTS.override.md', 'CLAUDE.md', 'GEMINI.md'];
const CLIENTS = ['none', 'claude-code@2.1.200', 'copilot:cli', 'codex'];
const text = fc.oneof(fc.constant('Rules.\n'), fc.constant('See @docs/x.md and @./y.md\n'), fc.constant(`${'r'.repeat(1023)}\n`.repeat(40)));

const tree = fc.record({
  dirFiles: fc.array(fc.tuple(fc.constantFrom(...DIRS), fc.constantFrom(...NAMES), text), { maxLength: 12 }),
  formats: fc.subarray([
    ['.github/copilot-instructions.md', 'Copilot.\n'],
    ['.github/instructions/ts.instructions.md', '---\napplyTo: "**/*.ts"\n---\nTS.\n'],
    ['.cursor/rules/always.mdc', '---\nalwaysApply: true\n---\nAlways.\n'],
    ['a/.cursor/rules/nested.mdc', '---\nalwaysApply: true\n---\nNested.\n'],
    ['.claude/CLAUDE.md', 'Memory @docs/x.md\n'],
    ['.claude/rules/c.md', '---\npaths: c/**\n---\nC.\n'],
  ] as const),
  dirs: fc.shuffledSubarray(DIRS, { minLength: 1 }),
  client: fc.constantFrom(...CLIENTS),
});

/** The matrix's verdicts for a tree: every directory in focus, as the whole-repository matrix reads them. */
async function verdictsOf(files: Record<string, MemoryFile>): Promise<RuleVerdictInput[]> {
  const snapshot = await memorySnapshot(files);
  const input = { task: { cwd: '', focusPaths: DIRS.filter((dir) => dir !== ''), agent: 'entry', client: NO_CLIENT }, config: RulesConfigSchema.parse({}), signal: AbortSignal.timeout(10_000) };
  return (await resolve(snapshot, input, await gatherRules(snapshot, input), true)).verdicts;
}

/** The definition, written as it reads: of every directory's answer for the file, the first of the strongest. */
function folded(verdicts: readonly RuleVerdictInput[], dirs: readonly string[], client: ClientRef): LoadsByClient {
  const perDir = dirs.map((dir) => clientLoads(verdicts, dir, client));
  const firstOfStrongest = (answers: Array<ClientLoad | undefined>): ClientLoad | undefined => {
    const given = answers.filter((answer): answer is ClientLoad => answer !== undefined);
    const top = Math.max(...given.map((answer) => LOAD_STRENGTH[answer.load]));
    return given.find((answer) => LOAD_STRENGTH[answer.load] === top);
  };
  return Object.fromEntries(CLIENT_NAMES.map((name) => [name, verdicts.map((_, i) => firstOfStrongest(perDir.map((loads) => loads[name][i])))])) as Record<ClientName, Array<ClientLoad | undefined>>;
}

describe('strongestLoads', () => {
  it('is each directory’s answers folded, the first of equal strength kept, over generated trees', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async ({ dirFiles, formats, dirs, client }) => {
        const files: Record<string, MemoryFile> = { 'docs/x.md': 'X.\n', 'y.md': 'Y.\n', 'a/y.md': 'AY.\n' };
        for (const [dir, name, body] of dirFiles) files[dir === '' ? name : `${dir}/${name}`] = body;
        for (const [path, body] of formats) files[path] = body;
        const verdicts = await verdictsOf(files);
        const ref = clientRefOf(client);
        expect(strongestLoads(verdicts, dirs, ref)).toEqual(folded(verdicts, dirs, ref));
      }),
      { numRuns: 80 },
    );
  });

  it('answers for the clients named what it answers for every client, and for no other', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.subarray([...CLIENT_NAMES]), async ({ dirFiles, formats, dirs, client }, names) => {
        const files: Record<string, MemoryFile> = { 'docs/x.md': 'X.\n', 'y.md': 'Y.\n', 'a/y.md': 'AY.\n' };
        for (const [dir, name, body] of dirFiles) files[dir === '' ? name : `${dir}/${name}`] = body;
        for (const [path, body] of formats) files[path] = body;
        const verdicts = await verdictsOf(files);
        const ref = clientRefOf(client);
        const [all, some] = [strongestLoads(verdicts, dirs, ref), strongestLoads(verdicts, dirs, ref, names)];
        expect(Object.keys(some).sort()).toEqual([...names].sort());
        for (const name of names) expect(some[name]).toEqual(all[name]);
        const [here, hereSome] = [clientLoads(verdicts, dirs[0] ?? '', ref), clientLoads(verdicts, dirs[0] ?? '', ref, names)];
        expect(Object.keys(hereSome).sort()).toEqual([...names].sort());
        for (const name of names) expect(hereSome[name]).toEqual(here[name]);
      }),
      { numRuns: 40 },
    );
  });

  it('answers for hundreds of rule directories as the fold does', () => {
    // The shape of a large monorepo's found files, made directly: more than one run of the rule
    // set reads (maxRuleFiles), as a repository's whole matrix meets them across its packages.
    const verdicts: RuleVerdictInput[] = [];
    const file = (path: string, format: string, found: Partial<FoundRuleFile> = {}): RuleVerdictInput => ({
      path,
      format,
      verdict: 'applied',
      reason: 'on the chain',
      found: { dir: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '', bytes: 2_000, ...found },
    });
    verdicts.push(file('AGENTS.md', 'directory-file'), file('CLAUDE.md', 'directory-file', { importers: [] }), file('.claude/CLAUDE.md', 'claude-memory', { dir: '' }));
    for (let i = 0; i < 300; i++) {
      verdicts.push(file(`packages/p${i}/AGENTS.md`, 'directory-file', { bytes: 20_000 }));
      if (i % 3 === 0) verdicts.push(file(`packages/p${i}/CLAUDE.md`, 'directory-file', { importers: [{ path: `packages/p${i}/AGENTS.md`, reference: 'CLAUDE.md' }] }));
      if (i % 5 === 0) verdicts.push(file(`packages/p${i}/src/GEMINI.md`, 'directory-file'));
      if (i % 7 === 0) verdicts.push(file(`packages/p${i}/docs/x.md`, 'import', { importedBy: `packages/p${i}/AGENTS.md`, depth: 1, reference: 'docs/x.md' }));
    }
    const dirs = ['packages/p1', ...new Set(verdicts.flatMap((verdict) => (verdict.found ? [verdict.found.dir] : [])))];
    expect(dirs.length).toBeGreaterThan(300);
    for (const client of [NO_CLIENT, clientRefOf('claude-code@2.1.200')]) expect(strongestLoads(verdicts, dirs, client)).toEqual(folded(verdicts, dirs, client));
  });
});
