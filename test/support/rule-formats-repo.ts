/**
 * @module test/support/rule-formats-repo
 * A monorepo that keeps its instructions in every format Groundwork reads, with every
 * frontmatter variant, hostile ones included (a glob for everything, `../` in a glob, huge and
 * broken frontmatter, an alias bomb, an import cycle, imports out of the tree). Text files only,
 * so a git remote can serve it; tests that need a symlink add it themselves.
 */

const HUGE = `description: ${'x'.repeat(20_000)}`;
const BOMB = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');

export const RULE_FORMAT_FILES: Record<string, string> = {
  'AGENTS.md': '# Monorepo\nRun `npm test` before you push.\n',
  'package.json': '{ "name": "mono" }\n',
  'docs/style.md': 'Style: two-space indent. See @a.md for naming.\n',
  'docs/a.md': 'Naming: kebab-case files. Back to @style.md (a cycle).\n',
  'packages/api/src/index.ts': 'export const api = 1;\n',
  'packages/api/CLAUDE.md': [
    '# API package',
    'Follow @../../docs/style.md and @notes/errors.md.',
    'Not imports: `@inline/code.md`, user@example.com, @octokit/rest, @~/.claude/prefs.md is refused, and so is @/etc/passwd.',
    '```',
    '@fenced/block.md',
    '```',
    'Missing: @./gone.md, and out of the tree when it is a symlink: @notes/out.md',
    '',
  ].join('\n'),
  'packages/api/notes/errors.md': 'Errors are values, never exceptions.\n',
  'packages/web/src/app.ts': 'export const app = 1;\n',
  'packages/web/src/view.tsx': 'export const view = 1;\n',
  '.github/copilot-instructions.md': 'Copilot: prefer small pull requests.\n',
  '.github/instructions/typescript.instructions.md': '---\napplyTo: "**/*.ts"\n---\nTypeScript: strict mode, no any.\n',
  '.github/instructions/web/react.instructions.md': '---\napplyTo: "packages/web/**, **/*.tsx"\n---\nReact: function components only.\n',
  '.github/instructions/review.instructions.md': '---\napplyTo: "**"\nexcludeAgent: "code-review"\n---\nWhen coding, write the test first.\n',
  '.github/instructions/attached.instructions.md': '# Only when attached by hand\n',
  '.github/instructions/typo.instructions.md': '---\napplyTo: "srcs/**/*.go"\n---\nGo: gofmt everything.\n',
  '.github/instructions/escape.instructions.md': '---\napplyTo: "../outside/**"\n---\nNever shown.\n',
  '.cursor/rules/always.mdc': '---\ndescription: House rules\nglobs:\nalwaysApply: true\n---\nCursor: keep functions short.\n',
  '.cursor/rules/typescript.mdc': '---\nglobs: "*.ts"\nalwaysApply: false\n---\nCursor TS: prefer type over interface.\n',
  '.cursor/rules/database.mdc': '---\ndescription: Database migrations and schema changes\nalwaysApply: false\n---\nMigrations: never edit an applied one.\n',
  '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nOnly when named.\n',
  '.cursor/rules/huge.mdc': `---\n${HUGE}\n---\nHuge.\n`,
  '.cursor/rules/broken.mdc': '---\nglobs: [unclosed\n---\nBroken.\n',
  '.cursor/rules/bomb.mdc': `---\n${BOMB}\n---\nBomb.\n`,
  '.cursor/rules/everything.mdc': '---\nglobs: "**"\n---\nCursor: everything matches this.\n',
  'packages/web/.cursor/rules/web.mdc': '---\nglobs: src/**\n---\nWeb: use the design tokens.\n',
  'packages/web/.cursor/rules/web-always.mdc': '---\nalwaysApply: true\n---\nWeb: always run the visual tests.\n',
  '.cursorrules': 'Legacy cursorrules: be terse.\n',
  '.claude/CLAUDE.md': 'Claude memory: keep commits small. Conventions: @../docs/conventions.md\n',
  'docs/conventions.md': 'Conventions: one concept per file.\n',
  '.claude/rules/general.md': 'Claude: explain why, not what.\n',
  '.claude/rules/api.md': '---\npaths:\n  - "packages/api/**"\n---\nClaude API: validate with zod. See @../../docs/style.md.\n',
  '.claude/rules/frontend/web.md': '---\npaths: packages/web/**/*.tsx\n---\nClaude web: no inline styles.\n',
};
