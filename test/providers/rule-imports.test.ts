// Issue 55, item 4: every reference an import could be gets one verdict, in the order referenced:
// the refused ones say why, and past the import limit each later one says the limit was reached.
import { describe, expect, it } from 'vitest';
import type { ClientRef } from '../../src/context/client.ts';
import { RulesConfigSchema } from '../../src/providers/rules/config.ts';
import { NO_CLIENT } from '../../src/context/client.ts';
import { rulesMatrix } from '../../src/providers/rules/rules-matrix.ts';
import { gatherRules, resolve } from '../../src/providers/rules/rule-set.ts';
import { setOf } from '../clients/support.ts';
import { memorySnapshot } from '../support/memory-tree.ts';

const BINARY = new Uint8Array([0x50, 0x4b, 0x00, 0x01, 0x02]);

const importVerdicts = (set: Awaited<ReturnType<typeof setOf>>) => set.files.filter((file) => file.format === 'import').map((file) => [file.path, file.verdict, file.reason]);

describe('import verdicts, one per reference, in order', () => {
  it('says why each refused reference was not followed: out of the tree, into .git, encoded dots, home, absolute', async () => {
    const set = await setOf({
      'CLAUDE.md': 'Read @sub/../../etc/passwd, @.git/config, @%2e%2e/x.md, @~/.claude/me.md, @/etc/hosts and @docs/ok.md.\n',
      'docs/ok.md': 'ok\n',
    });
    expect(importVerdicts(set)).toEqual([
      ['sub/../../etc/passwd', 'not-applied', 'import @sub/../../etc/passwd in CLAUDE.md not followed: path escapes the repository root'],
      ['.git/config', 'not-applied', "import @.git/config in CLAUDE.md not followed: a .git directory is git's own, not part of the commit's tree"],
      ['%2e%2e/x.md', 'not-applied', 'import @%2e%2e/x.md in CLAUDE.md not followed: %2e is percent-encoding, which an import path is never decoded from'],
      ['~/.claude/me.md', 'not-applied', 'import @~/.claude/me.md in CLAUDE.md not followed: a home directory is outside the repository'],
      ['/etc/hosts', 'not-applied', 'import @/etc/hosts in CLAUDE.md not followed: an absolute path is outside the repository'],
      ['docs/ok.md', 'applied', 'imported by CLAUDE.md'],
    ]);
  });

  it('refuses a nested .git and a climb that stays inside the tree only when it names nothing there', async () => {
    const set = await setOf({ 'packages/api/CLAUDE.md': '@vendor/.git/HEAD and @sub/../../etc/passwd\n' }, { cwd: 'packages/api' });
    expect(importVerdicts(set)).toEqual([
      ['vendor/.git/HEAD', 'not-applied', "import @vendor/.git/HEAD in packages/api/CLAUDE.md not followed: a .git directory is git's own, not part of the commit's tree"],
      ['packages/etc/passwd', 'not-applied', 'import @sub/../../etc/passwd in packages/api/CLAUDE.md: packages/etc/passwd is not in the tree at this commit'],
    ]);
  });

  it('past the import limit, says "limit reached" for every later reference, a binary one too', async () => {
    const set = await setOf(
      { 'CLAUDE.md': '@early.bin @a.md @b.md @c.md @late.bin @d.md\n', 'early.bin': BINARY, 'late.bin': BINARY, 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n', 'd.md': 'd\n' },
      { config: { maxImports: 2 } },
    );
    expect(importVerdicts(set).map(([path, verdict, reason]) => [path, verdict, (reason ?? '').replace(/^import @\S+ in CLAUDE.md:? ?/, '')])).toEqual([
      ['early.bin', 'not-applied', 'early.bin is a binary file'],
      ['a.md', 'applied', 'imported by CLAUDE.md'],
      ['b.md', 'applied', 'imported by CLAUDE.md'],
      ['c.md', 'not-applied', "not expanded: this run's import limit is reached"],
      ['late.bin', 'not-applied', "not expanded: this run's import limit is reached"],
      ['d.md', 'not-applied', "not expanded: this run's import limit is reached"],
    ]);
  });

  it('past the depth limit, names each reference of the deepest file', async () => {
    const set = await setOf({ 'CLAUDE.md': '@one.md\n', 'one.md': '@two.md\n', 'two.md': '@three.md and @four.md and @octokit/rest\n', 'three.md': '3\n', 'four.md': '4\n' }, { config: { maxImportDepth: 2 } });
    expect(importVerdicts(set).map(([path, verdict]) => [path, verdict])).toEqual([
      ['one.md', 'applied'],
      ['two.md', 'applied'],
      ['three.md', 'not-applied'],
      ['four.md', 'not-applied'],
    ]);
    expect(set.files.find((file) => file.path === 'four.md')?.reason).toBe('import @four.md in two.md not expanded: deeper than 2 levels');
  });

  it('counts the references past the 64 it looks at in one file', async () => {
    const refs = Array.from({ length: 70 }, (_, i) => `@n${i}.md`).join(' ');
    const set = await setOf({ 'CLAUDE.md': `${refs}\n` }, { config: { maxImports: 0 } });
    const verdicts = importVerdicts(set);
    expect(verdicts).toHaveLength(65);
    expect(verdicts.at(-1)).toEqual(['CLAUDE.md', 'not-applied', '6 more @ references in CLAUDE.md not looked at: at most 64 per file']);
  });
});

describe('rules gathered once at a snapshot and resolved for several clients (rules-memo)', () => {
  it("gives each client the import's warning once, however often the kept rules are resolved", async () => {
    const snapshot = await memorySnapshot({ 'CLAUDE.md': 'See @docs/missing.md.\n' });
    const config = RulesConfigSchema.parse({});
    const warningsFor = async (client: ClientRef) => {
      const input = { task: { cwd: '', focusPaths: [], agent: 'entry', client }, config, signal: AbortSignal.timeout(10_000) };
      const gathered = await gatherRules(snapshot, input);
      const resolved = await resolve(snapshot, input, gathered, true);
      return { gathered, warnings: resolved.ranked.map(({ piece }) => piece.warnings) };
    };
    const first = await warningsFor({ name: 'codex' });
    const second = await warningsFor({ name: 'gemini-cli' });
    const third = await warningsFor({ name: 'cursor' });
    // The same kept gathering each time, resolved for each client.
    expect(second.gathered).toBe(first.gathered);
    expect(third.gathered).toBe(first.gathered);
    const claude = (run: typeof first) => run.warnings.find((warnings) => warnings.length > 0);
    expect(claude(first)).toHaveLength(1);
    expect(claude(third)).toEqual(claude(first));
    expect(first.gathered.pieces.every((piece) => piece.warnings.length === 0)).toBe(true);
  });

  it('resolves a kept gathering once for each client and listing, and the matrix after it is the matrix of a fresh snapshot', async () => {
    const files = {
      'AGENTS.md': '# Root\n',
      'CLAUDE.md': 'Claude only. See @docs/style.md.\n',
      'docs/style.md': 'Style.\n',
      'packages/a/AGENTS.md': '# a\n',
      'packages/a/src/index.ts': 'export {};\n',
      '.cursor/rules/ts.mdc': '---\nglobs: packages/**/*.ts\n---\nTypes.\n',
    };
    const config = RulesConfigSchema.parse({});
    const changed = ['packages/a/src/index.ts'];
    const inputFor = (client: ClientRef) => ({ task: { cwd: '', focusPaths: changed, agent: 'entry', client }, focusFiles: changed, config, signal: AbortSignal.timeout(10_000) });
    const snapshot = await memorySnapshot(files);
    // Turn 0 as a webhook's task gathers and resolves them: no client named.
    const gathered = await gatherRules(snapshot, inputFor(NO_CLIENT));
    const first = await resolve(snapshot, inputFor(NO_CLIENT), gathered, true);
    expect(await resolve(snapshot, inputFor(NO_CLIENT), gathered, true)).toBe(first);
    const codex = await resolve(snapshot, inputFor({ name: 'codex' }), gathered, true);
    expect(codex).not.toBe(first);
    expect(await resolve(snapshot, inputFor({ name: 'codex' }), gathered, true)).toBe(codex);
    expect(await resolve(snapshot, inputFor({ name: 'codex', version: '0.1.0' }), gathered, true)).not.toBe(codex);
    expect(await resolve(snapshot, inputFor(NO_CLIENT), gathered, false)).not.toBe(first);

    const request = { cwd: '', paths: changed, files: changed, config, signal: AbortSignal.timeout(10_000) };
    const afterTurn = await rulesMatrix(snapshot, request);
    const fresh = await rulesMatrix(await memorySnapshot(files), request);
    expect(afterTurn).toEqual(fresh);
    expect(afterTurn.files.map((file) => file.path)).toEqual(expect.arrayContaining(['AGENTS.md', 'CLAUDE.md', 'packages/a/AGENTS.md', '.cursor/rules/ts.mdc']));
  });
});
