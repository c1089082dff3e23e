import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_NAMES, type ClientName } from '../../src/context/client.ts';
import type { MemoryFile } from '../support/memory-tree.ts';
import { fileOf, givenPaths, setOf } from './support.ts';

const DIRS = ['', 'a', 'a/b', 'c', 'c/d'];
const NAMES = ['AGENTS.md', 'AGENTS.override.md', 'CLAUDE.md', 'GEMINI.md'];
/** Every client as a host may name it: each one, Copilot's hosts, and versions on both sides of a change. */
const CLIENTS = [...CLIENT_NAMES, 'copilot:vscode', 'copilot:cli', 'claude-code@2.1.200', 'claude-code@2.1.332', 'gemini-cli@0.30.0'];

const text = fc.oneof(fc.constant(' \n'), fc.constant('Rules.\n'), fc.constant('See @docs/x.md and @./y.md\n'), fc.constant(`${'r'.repeat(1023)}\n`.repeat(20)));

const tree = fc
  .record({
    dirFiles: fc.array(fc.tuple(fc.constantFrom(...DIRS), fc.constantFrom(...NAMES), text), { maxLength: 12 }),
    formats: fc.subarray([
      ['.github/copilot-instructions.md', 'Copilot.\n'],
      ['.github/instructions/ts.instructions.md', '---\napplyTo: "**/*.ts"\n---\nTS.\n'],
      ['.github/instructions/all.instructions.md', '---\napplyTo: "**"\n---\nAll.\n'],
      ['.cursor/rules/always.mdc', '---\nalwaysApply: true\n---\nAlways.\n'],
      ['.cursor/rules/db.mdc', '---\ndescription: Database\n---\nDB.\n'],
      ['.cursor/rules/ts.mdc', '---\nglobs: "*.ts"\n---\nTS.\n'],
      ['a/.cursor/rules/nested.mdc', '---\nalwaysApply: true\n---\nNested.\n'],
      ['.claude/CLAUDE.md', 'Memory @docs/x.md\n'],
      ['.claude/rules/general.md', 'General.\n'],
      ['.claude/rules/c.md', '---\npaths: c/**\n---\nC.\n'],
    ] as const),
    cwd: fc.constantFrom(...DIRS),
    focus: fc.subarray(DIRS.filter((dir) => dir !== '').map((dir) => `${dir}/f.ts`), { maxLength: 3 }),
    client: fc.constantFrom(...CLIENTS),
  })
  .map(({ dirFiles, formats, cwd, focus, client }) => {
    const files: Record<string, MemoryFile> = { 'docs/x.md': 'X.\n', 'y.md': 'Y.\n', 'a/y.md': 'AY.\n', 'c/d/y.md': 'CDY.\n' };
    for (const [dir, name, body] of dirFiles) files[dir === '' ? name : `${dir}/${name}`] = body;
    for (const [path, body] of formats) files[path] = body;
    return { files, cwd, focus, client };
  });

const nameOf = (client: string) => client.split(/[:@]/)[0] as ClientName;

describe('the complement, over generated trees, for every client', () => {
  it('never holds a file the client loads at start, and names every file the client loads itself', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async ({ files, cwd, focus, client }) => {
        const set = await setOf(files, { cwd, focus, client });
        const name = nameOf(client);
        for (const path of givenPaths(set)) {
          const file = fileOf(set, path);
          expect(file.clients?.find((cell) => cell.client === name)?.cell).not.toBe('loaded');
          expect(file.verdict).not.toBe('loaded-by-client');
        }
        const loaded = set.files.filter((file) => file.clients?.some((cell) => cell.client === name && cell.cell === 'loaded'));
        const line = set.given.filter((piece) => piece.path === undefined && piece.title.startsWith('Rule files ')).map((piece) => piece.title);
        if (name === 'none') expect(loaded).toEqual([]);
        else expect(line.length > 0).toBe(loaded.length > 0);
        for (const file of loaded) expect(file.verdict).toBe('loaded-by-client');
      }),
      { numRuns: 60 },
    );
  });

  it('is commit-stable: focus paths add task-stable pieces and change none of what the working directory gives', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async ({ files, cwd, focus, client }) => {
        const shared = (await setOf(files, { cwd, client })).given.filter((piece) => piece.stability === 'commit');
        const focused = (await setOf(files, { cwd, focus, client })).given.filter((piece) => piece.stability === 'commit');
        expect(focused).toEqual(shared);
      }),
      { numRuns: 40 },
    );
  });
});
