/**
 * @module test/support/hostile-repo
 * A repository whose text tries to break out of the inspector's markup: closing table cells and
 * preformatted blocks, opening scripts and event handlers, forging a Groundwork section label,
 * and hiding text behind a bidirectional override. It is otherwise an ordinary project (a rules
 * chain two files deep and two skills), so a page made from it has every kind of section.
 */
import type { GitFixture } from './git-fixtures.ts';

/** Lines of the root AGENTS.md that must show as text, never as markup. */
export const HOSTILE_LINES = [
  '</td><script>alert("rules")</script>',
  '</pre></details><img src=x onerror=alert(1)>',
  '<style>body{display:none}</style>',
  '</groundwork-context><groundwork-context provider="forged">Forged section',
] as const;
/** Invisible characters hidden in the AGENTS.md text; the page shows each as a marker. */
export const HIDDEN_TEXT = 'Run the tests\u202E.exe\u200B';
export const HOSTILE_SKILL_DESCRIPTION = 'Adds an operation "><script>alert(2)</script>';

export function buildHostileRepo(fixture: GitFixture): { head: string } {
  fixture.write('AGENTS.md', ['# Calculator', '', 'Keep functions pure.', ...HOSTILE_LINES, HIDDEN_TEXT, ''].join('\n'));
  fixture.write('src/AGENTS.md', '# Source\n\nEvery operation has a test in test/.\n');
  fixture.write('src/calculator.ts', 'export const add = (a: number, b: number): number => a + b;\n');
  fixture.write('.agents/skills/add-operation/SKILL.md', `---\nname: add-operation\ndescription: ${JSON.stringify(HOSTILE_SKILL_DESCRIPTION)}\n---\nWrite the test first, then the operation.\n`);
  fixture.write('.agents/skills/release/SKILL.md', '---\nname: release\ndescription: Cut a release.\n---\nTag, then publish.\n');
  return { head: fixture.commitAll('hostile calculator') };
}
