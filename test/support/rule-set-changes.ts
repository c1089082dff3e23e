/**
 * @module test/support/rule-set-changes
 * One push that changes the rule set of a task working in `src` (or touching `src/…`) in every way
 * freshness tells apart: an override that replaces a directory's file, a file shadowed beside
 * one, scoped rules newly matching and no longer, imports added, no longer referenced and
 * deleted, a rename, a settings file turning a format off, and a skills root that appears. The
 * Worker's tests push it to a git remote and to the GitHub API test server.
 */

/** What the task is pinned at (on top of whatever the repository holds). */
export const PIN_RULES: Record<string, string> = {
  'src/AGENTS.md': 'Src rules.\n',
  '.claude/rules/style.md': '# Style\n@../../docs/style.md\n@../../docs/old.md\n@../../docs/gone.md\n',
  'docs/style.md': 'Style.\n',
  'docs/old.md': 'Old.\n',
  'docs/gone.md': 'Gone.\n',
  '.github/instructions/api.instructions.md': '---\napplyTo: "lib/**"\n---\nAPI rules.\n',
  '.github/instructions/src.instructions.md': '---\napplyTo: "src/**"\n---\nSource rules.\n',
  '.cursor/rules/legacy.mdc': '---\nalwaysApply: true\n---\nLegacy rule.\n',
  '.github/copilot-instructions.md': 'Copilot.\n',
  'lib/util.ts': 'export {};\n',
};

/** The push after the pin: every kind of change at once. */
export const HEAD_RULES: Record<string, string | null> = {
  'src/AGENTS.override.md': 'Src override: run the integration tests.\n',
  'src/CLAUDE.md': 'Claude in src.\n',
  '.claude/rules/style.md': '# Style\n@../../docs/style.md\n@../../docs/gone.md\n@../../docs/new.md\n',
  'docs/new.md': 'New import.\n',
  'docs/gone.md': null,
  '.github/instructions/api.instructions.md': '---\napplyTo: "src/**"\n---\nAPI rules.\n',
  '.github/instructions/src.instructions.md': '---\napplyTo: "docs/**"\n---\nSource rules.\n',
  '.cursor/rules/legacy.mdc': null,
  '.cursor/rules/kept.mdc': '---\nalwaysApply: true\n---\nLegacy rule.\n',
  '.groundwork.yml': 'providers:\n  rules:\n    copilotInstructions: false\n',
  '.claude/skills/review/SKILL.md': '---\nname: review\ndescription: Review a change.\n---\nRead the diff twice.\n',
};

/** The lines every surface shows for that push, for a task whose focus in `src` is `scope` (`src` as a working directory, `src/app.ts` as a path). */
export function ruleSetLines(scope: string, matched: string): string[] {
  return [
    '.groundwork.yml changed what rules reads: the defaults -> copilotInstructions off',
    '.cursor/rules/legacy.mdc renamed to .cursor/rules/kept.mdc',
    '.github/copilot-instructions.md no longer applies: turned off by a setting (copilotInstructions: false)',
    `.github/instructions/api.instructions.md now applies: applyTo "src/**" matched ${matched}`,
    '.github/instructions/src.instructions.md no longer applies: no focus path matched applyTo "docs/**"',
    'docs/gone.md deleted (it applied: imported by .claude/rules/style.md)',
    'docs/new.md added: imported by .claude/rules/style.md',
    'docs/old.md no longer applies: nothing the rules read imports it now (it was imported by .claude/rules/style.md)',
    `src/AGENTS.override.md added: it replaces src/AGENTS.md for ${scope}`,
    'src/CLAUDE.md added: shadowed by src/AGENTS.override.md in src, which is given instead',
    'skills root .claude/skills appeared: skill review',
  ];
}
