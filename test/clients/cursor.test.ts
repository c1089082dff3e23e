import { describe, expect, it } from 'vitest';
import { clientFromMcp } from '../../src/clients/mcp-names.ts';
import { FACTS } from '../../src/clients/facts/index.ts';
import { checkCase, factsOf, type FactCase } from './support.ts';

const RULES = 'cursor.com/docs/rules';

const CASES: FactCase[] = [
  {
    fact: 'cursor.rules',
    source: `${RULES} ("Rule file structure", rule types)`,
    files: {
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nalways\n',
      '.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts\n',
      '.cursor/rules/db.mdc': '---\ndescription: Database migrations\n---\ndb\n',
      '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nmanual\n',
      '.cursor/rules/plain.md': 'plain markdown\n',
    },
    focus: ['src/a.ts'],
    client: 'cursor',
    cells: { '.cursor/rules/always.mdc': 'loaded', '.cursor/rules/ts.mdc': 'given', '.cursor/rules/db.mdc': 'lazy', '.cursor/rules/manual.mdc': 'not-seen', '.cursor/rules/plain.md': 'not-seen' },
    details: { '.cursor/rules/db.mdc': 'the agent picks it by its description', '.cursor/rules/plain.md': 'ignores a plain .md' },
  },
  {
    fact: 'cursor.agents-md',
    source: 'forum.cursor.com/t/…/160773 (Cursor team answer)',
    files: { 'AGENTS.md': 'root\n', 'packages/web/AGENTS.md': 'web\n' },
    focus: ['packages/web/src/app.tsx'],
    client: 'cursor',
    cells: { 'AGENTS.md': 'loaded', 'packages/web/AGENTS.md': 'given' },
    details: { 'packages/web/AGENTS.md': 'the agent reads or edits a file in packages/web' },
  },
  {
    fact: 'cursor.unconfirmed',
    source: 'third-party quotes of older docs.cursor.com',
    files: { '.cursorrules': 'legacy\n', 'CLAUDE.md': 'claude\n', 'packages/web/.cursor/rules/web.mdc': '---\nalwaysApply: true\n---\nweb\n' },
    focus: ['packages/web/src/app.tsx'],
    client: 'cursor',
    cells: { '.cursorrules': 'given', 'CLAUDE.md': 'given', 'packages/web/.cursor/rules/web.mdc': 'given' },
  },
];

describe('the Cursor profile, fact by fact', () => {
  it.each(CASES)('$fact: $client ($source)', async (c) => {
    await checkCase(c, 'cursor');
  });

  it('cursor.rules: the rules index leaves out the rules Cursor offers its agent itself', async () => {
    const files = { '.cursor/rules/db.mdc': '---\ndescription: Database migrations\n---\ndb\n' };
    const { setOf, fileOf } = await import('./support.ts');
    const none = await setOf(files);
    expect(none.given.map((piece) => piece.title)).toEqual(['Rules index']);
    const cursor = await setOf(files, { client: 'cursor' });
    expect(cursor.given).toEqual([]);
    expect(fileOf(cursor, '.cursor/rules/db.mdc')).toMatchObject({ verdict: 'not-applied', reason: 'left to Cursor, which loads it when the agent picks it by its description' });
  });

  it('cursor.mcp: maps clientInfo "cursor-vscode" without its constant version', () => {
    expect(clientFromMcp({ name: 'cursor-vscode', version: '1.0.0' })).toEqual({ name: 'cursor' });
  });

  it('pins every fact of the profile', () => {
    expect([...factsOf(CASES), 'cursor.mcp', 'cursor.frontmatter' /* the lints' test pins it: test/node/rules-lints.test.ts */].sort()).toEqual(FACTS.cursor.map((fact) => fact.id).sort());
  });
});
