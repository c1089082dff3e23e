import { describe, expect, it } from 'vitest';
import type { ClientCell } from '../../src/context/client-load.ts';
import type { RuleLint } from '../../src/context/rule-lint.ts';
import type { RuleVerdict } from '../../src/context/rule-verdict.ts';
import type { RulesMatrix } from '../../src/context/rules-matrix.ts';
import { codeSpan, escapeMarkdown, markdownLink, MAX_SUMMARY_BYTES, utf8Bytes } from '../../src/notify/markdown.ts';
import { rulesHeadline, rulesReport, rulesReportOrReason, type RulesReportLinks } from '../../src/notify/rules-report.ts';
import { turnSummary } from '../../src/notify/check-run-summary.ts';
import { TASK_ID, TURN } from '../triggers/notify-fixtures.ts';

const COMMIT = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
/** A distinct blob per path (a file's text is its own unless a test says otherwise). */
const blobOf = (path: string) => [...path].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7).toString(16).padStart(8, '0').repeat(5);
const WEB = `https://github.com/acme/widgets/blob/${COMMIT}`;
const LINKS: RulesReportLinks = { file: (path, line) => `${WEB}/${path.split('/').map(encodeURIComponent).join('/')}${line === undefined ? '' : `#L${line}`}`, inspector: 'https://groundwork.test/tasks/t/view?sig=x#rule-matrix-0' };

type Cells = Partial<Record<'none' | 'codex' | 'claude-code' | 'gemini-cli' | 'copilot' | 'cursor', ClientCell['cell']>>;

function file(path: string, verdict: RuleVerdict['verdict'], cells: Cells, detail = '', blob = blobOf(path)): RuleVerdict {
  return {
    path,
    blob,
    format: 'directory-file',
    verdict,
    reason: '',
    clients: Object.entries(cells).map(([client, cell]) => ({ client: client as ClientCell['client'], cell, detail: cell === 'loaded' ? '' : detail || `${client} ${cell}` })),
  };
}

function matrix(overrides: Partial<RulesMatrix> = {}): RulesMatrix {
  return {
    commit: COMMIT,
    cwd: '',
    paths: ['packages/api/src/handler.ts', 'packages/web/src/app.tsx'],
    clients: ['codex', 'claude-code'],
    files: [
      file('AGENTS.md', 'applied', { none: 'given', codex: 'loaded', 'claude-code': 'loaded' }),
      file('packages/api/AGENTS.md', 'applied', { none: 'given', codex: 'given', 'claude-code': 'given' }, 'read only from the root down to the working directory'),
      file('packages/web/CLAUDE.md', 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'lazy' }, 'Codex reads AGENTS.md, not CLAUDE.md'),
      file('packages/db/migrations/AGENTS.md', 'shadowed', { none: 'shadowed', codex: 'shadowed', 'claude-code': 'not-seen' }),
    ],
    filesLeftOut: 0,
    lints: [],
    lintsLeftOut: 0,
    notes: [],
    ...overrides,
  };
}

const lint = (overrides: Partial<RuleLint> = {}): RuleLint => ({ code: 'frontmatter-unreadable', severity: 'error', path: '.cursor/rules/a.mdc', line: 2, clients: ['cursor'], message: 'bad YAML: Cursor skips the rule', facts: ['cursor.rules'], ...overrides });

describe('the rules report headline', () => {
  it('counts the files that apply and names the first a listed client will not see', () => {
    // The migrations file is shadowed or not seen for everyone: it does not apply.
    expect(rulesHeadline(matrix())).toBe('3 rule files apply to this change; Codex will not see `packages/web/CLAUDE.md`');
  });

  it('counts the other files not seen and the lint errors, but not warnings', () => {
    const more = matrix({
      files: [...matrix().files, file('docs/GEMINI.md', 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'not-seen', 'gemini-cli': 'loaded' })],
      clients: ['codex', 'claude-code', 'gemini-cli'],
      lints: [lint(), lint({ severity: 'warning', code: 'glob-matches-nothing' })],
    });
    expect(rulesHeadline(more)).toBe('4 rule files apply to this change; Codex will not see `packages/web/CLAUDE.md` (and 1 more file some client will not see); 1 lint error');
  });

  it('names every listed client that will not see the first such file', () => {
    const three = matrix({ clients: ['codex', 'claude-code', 'cursor'], files: [file('AGENTS.md', 'applied', { none: 'given', codex: 'loaded', 'claude-code': 'loaded', cursor: 'loaded' }), file('packages/web/CLAUDE.md', 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'lazy', cursor: 'not-seen' })] });
    expect(rulesHeadline(three)).toBe('2 rule files apply to this change; Codex and Cursor will not see `packages/web/CLAUDE.md`');
  });

  it('counts no gap for a CLAUDE.md beside the AGENTS.md a client reads, unless the lints say the two disagree', () => {
    // cloudflare/workers-sdk: CLAUDE.md is a preface and `See @AGENTS.md`.
    const beside = [file('AGENTS.md', 'applied', { none: 'given', codex: 'loaded', 'claude-code': 'loaded' }), file('CLAUDE.md', 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'loaded' })];
    expect(rulesHeadline(matrix({ files: beside }))).toBe('2 rule files apply to this change; every listed client has their rules, by itself or from Groundwork');
    const disagreement = lint({ code: 'directory-disagreement', severity: 'warning', path: 'AGENTS.md', related: ['CLAUDE.md'], line: undefined, clients: ['codex', 'claude-code'] });
    expect(rulesHeadline(matrix({ files: beside, lints: [disagreement] }))).toBe('2 rule files apply to this change; Codex will not see `CLAUDE.md`');
  });

  it('counts no gap for a file whose text the client sees under another path (a CLAUDE.md linked to AGENTS.md)', () => {
    const linked = matrix({ files: [file('AGENTS.md', 'applied', { none: 'given', codex: 'loaded', 'claude-code': 'loaded' }), file('CLAUDE.md', 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'loaded' }, '', blobOf('AGENTS.md'))] });
    expect(rulesHeadline(linked)).toBe('2 rule files apply to this change; every listed client has their rules, by itself or from Groundwork');
    expect(rulesReport(linked, LINKS, 20_000).markdown).not.toContain('**Not seen**');
  });

  it('says when every listed client has the rules, and when no file applies', () => {
    const seen = matrix({ files: matrix().files.slice(0, 2) });
    expect(rulesHeadline(seen)).toBe('2 rule files apply to this change; every listed client has their rules, by itself or from Groundwork');
    expect(rulesHeadline(matrix({ files: [] }))).toBe('No rule file applies to this change');
  });

  it('counts only the listed clients: a file only Cursor misses is no gap when Cursor is not listed', () => {
    const cursorOnly = matrix({ files: [file('AGENTS.md', 'applied', { none: 'given', codex: 'loaded', cursor: 'not-seen' })] });
    expect(rulesHeadline(cursorOnly)).toBe('1 rule file applies to this change; every listed client has its rules, by itself or from Groundwork');
  });
});

describe('the rules report', () => {
  it('shows the matrix with blobs and links at the commit, the files not seen with why, and the lints with their line', () => {
    const report = rulesReport(matrix({ lints: [lint()] }), LINKS, 20_000);
    expect(report.markdown).toBe(
      [
        '### Rules for this change',
        '',
        `2 paths at \`${COMMIT}\`, clients starting at the root. Cells: **loaded** by the client at start, **lazy** later, **given** by Groundwork, **not seen**, **shadowed**, **cut** at its size cap.`,
        '',
        '| File | Blob | Groundwork | Codex | Claude Code |',
        '| --- | --- | --- | --- | --- |',
        `| [\`AGENTS.md\`](${WEB}/AGENTS.md) | \`${blobOf('AGENTS.md').slice(0, 12)}\` | applied | loaded | loaded |`,
        `| [\`packages/api/AGENTS.md\`](${WEB}/packages/api/AGENTS.md) | \`${blobOf('packages/api/AGENTS.md').slice(0, 12)}\` | applied | given | given |`,
        `| [\`packages/web/CLAUDE.md\`](${WEB}/packages/web/CLAUDE.md) | \`${blobOf('packages/web/CLAUDE.md').slice(0, 12)}\` | shadowed | **not seen** | lazy |`,
        `| [\`packages/db/migrations/AGENTS.md\`](${WEB}/packages/db/migrations/AGENTS.md) | \`${blobOf('packages/db/migrations/AGENTS.md').slice(0, 12)}\` | shadowed | shadowed | **not seen** |`,
        '',
        '**Not seen**',
        '',
        `- Codex will not see [\`packages/web/CLAUDE.md\`](${WEB}/packages/web/CLAUDE.md): Codex reads AGENTS.md, not CLAUDE.md`,
        '',
        '**Lints**',
        '',
        `- **error** [\`.cursor/rules/a.mdc\`](${WEB}/.cursor/rules/a.mdc#L2) line 2 \`frontmatter-unreadable\` (Cursor): bad YAML: Cursor skips the rule`,
      ].join('\n'),
    );
  });

  it('says there are no lints rather than leaving the section out', () => {
    expect(rulesReport(matrix(), LINKS, 20_000).markdown).toMatch(/\*\*Lints\*\*\n\nNone: no client drops any of these files without a word\.$/);
  });

  it('keeps to its budget with thousands of files and lints, counting the rest and linking the inspector', () => {
    const many = matrix({
      files: Array.from({ length: 200 }, (_, i) => file(`packages/p${i}/${'deep/'.repeat(60)}CLAUDE.md`, 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'loaded' })),
      filesLeftOut: 300,
      lints: Array.from({ length: 200 }, (_, i) => lint({ path: `p${i}/${'x'.repeat(400)}.mdc`, message: 'm'.repeat(400) })),
      lintsLeftOut: 50,
    });
    const budget = 22_000;
    const report = rulesReport(many, LINKS, budget);
    expect(utf8Bytes(report.markdown)).toBeLessThanOrEqual(budget);
    const counted = /\| … and (\d+) more files: every one is in \[the task's inspector\]\(https:\/\/groundwork\.test\/tasks\/t\/view\?sig=x#rule-matrix-0\) \|/.exec(report.markdown);
    const shown = report.markdown.split('\n').filter((line) => line.startsWith('| [')).length;
    expect(Number(counted?.[1])).toBe(500 - shown);
    expect(report.markdown).toMatch(/\n- … and (\d+) more lints: `groundwork rules --ref [0-9a-f]{40}` lists every one/);
    expect(report.markdown).toMatch(/\n- … and \d+ more: every one is in \[the task's inspector\]/);
  });

  it('measures multi-byte paths in UTF-8 bytes, as GitHub does', () => {
    const wide = matrix({ files: Array.from({ length: 200 }, (_, i) => file(`${'規則'.repeat(80)}/${i}/AGENTS.md`, 'applied', { none: 'given', codex: 'given', 'claude-code': 'given' })) });
    const report = rulesReport(wide, LINKS, 10_000);
    expect(utf8Bytes(report.markdown)).toBeLessThanOrEqual(10_000);
    expect(report.markdown.length).toBeLessThan(utf8Bytes(report.markdown));
  });

  it('without signed links, names where the rest is', () => {
    const many = matrix({ filesLeftOut: 3 });
    expect(rulesReport(many, { file: LINKS.file }, 20_000).markdown).toContain("| … and 3 more files: the task's inspector (GET /tasks/:id/view) lists them |");
  });

  it('says why there is no report, escaped, rather than an empty one', () => {
    expect(rulesReportOrReason({ status: 'failed', reason: 'reading the rule files at abc did not finish within 10000 ms [x](y)' }, LINKS, 20_000)).toEqual({
      headline: 'The rules report could not be made: reading the rule files at abc did not finish within 10000 ms \\[x\\]\\(y\\)',
      markdown: '### Rules for this change\n\nThe rules report could not be made: reading the rule files at abc did not finish within 10000 ms \\[x\\]\\(y\\)',
    });
    expect(rulesReportOrReason({ status: 'skipped', reason: 'the rules provider is off for this task' }, LINKS, 20_000).headline).toBe('No rules report: the rules provider is off for this task');
  });
});

describe('hostile file names in the rules report', () => {
  const hostile = [
    'docs/[click](javascript:alert(1))/AGENTS.md',
    'a)b/AGENTS.md',
    'x/<img src=x onerror=alert(1)>/AGENTS.md',
    'www.evil.example/AGENTS.md',
    'pipes|in|name/AGENTS.md',
    'back`tick``s/AGENTS.md',
    '@org/team/AGENTS.md',
    '# heading/AGENTS.md',
  ];

  it.each(hostile)('keeps %s a literal code span in one table cell, linked only to its own page', (path) => {
    const report = rulesReport(matrix({ files: [file(path, 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'loaded' })] }), LINKS, 20_000);
    const row = report.markdown.split('\n').find((line) => line.startsWith('| ['));
    // Outside code spans (rendered literally) there is one link, whose destination has no
    // parenthesis, space or angle bracket to end it early.
    const outside = (row ?? '').replaceAll(codeSpan(path, true), 'CODE');
    const destinations = [...outside.matchAll(/\]\(([^)]*)\)/g)].map((match) => match[1]);
    expect(destinations).toHaveLength(1);
    expect(destinations[0]).toMatch(/^https:\/\/github\.com\/acme\/widgets\/blob\/[0-9a-f]{40}\/[^\s()<>]+$/);
    // Exactly the table's cells: a pipe in the name is escaped inside the code span.
    expect((row ?? '').split(/(?<!\\)\|/).length - 2).toBe(5);
    expect(row).toContain(codeSpan(path, true));
    expect(report.headline).toContain(codeSpan(path));
    // What renders as Markdown (neither a code span nor a link's own destination) holds no tag, script or autolink.
    const rendered = report.markdown.replaceAll(codeSpan(path, true), '').replaceAll(codeSpan(path), '').replace(/\]\(https:\/\/github\.com\/acme\/widgets\/blob\/[^\s()<>]+\)/g, ']');
    expect(rendered).not.toMatch(/<img|javascript:|www\.evil/);
  });

  it('escapes markup and autolinks in reasons and lint messages', () => {
    const detail = 'see https://evil.example/x and www.evil.example <b>bold</b> [x](y) |';
    const report = rulesReport(matrix({ files: [file('A.md', 'shadowed', { none: 'shadowed', codex: 'not-seen', 'claude-code': 'loaded' }, detail)], lints: [lint({ message: detail })] }), LINKS, 20_000);
    for (const line of report.markdown.split('\n').filter((l) => l.startsWith('- '))) {
      expect(line).toContain('see https\\://evil.example/x and www\\.evil.example \\<b\\>bold\\</b\\> \\[x\\]\\(y\\) \\|');
    }
  });
});

describe('markdown helpers', () => {
  it('never leaves a parenthesis, space or angle bracket in a link destination', () => {
    expect(markdownLink('x', 'https://h/a (b)<c>.md')).toBe('[x](https://h/a%20%28b%29%3Cc%3E.md)');
    expect(markdownLink('x', 'javascript:alert(1)')).toBe('x');
  });

  it('fences a code span longer than any backtick run inside', () => {
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`a')).toBe('`` `a ``');
    expect(escapeMarkdown('www.a.b http://c')).toBe('www\\.a.b http\\://c');
  });
});

describe('the check run summary with the rules report', () => {
  it('opens with the rules headline and carries the report before the providers', () => {
    const rules = rulesReport(matrix(), LINKS, 20_000);
    const { summary } = turnSummary(TURN, TASK_ID, undefined, rules);
    expect(summary.split('\n')[0]).toBe('3 rule files apply to this change; Codex will not see `packages/web/CLAUDE.md`');
    expect(summary.indexOf('### Rules for this change')).toBeLessThan(summary.indexOf('### Providers'));
  });

  it('stays within 65,535 UTF-8 bytes when every part is full of multi-byte text', () => {
    const [first] = TURN.entries;
    if (!first) throw new Error('fixture has entries');
    const entries = Array.from({ length: 3_000 }, (_, i) => ({ ...first, title: `規則 ${i} ${'✓'.repeat(300)}`, warnings: ['警告'.repeat(200)] }));
    const files = Array.from({ length: 200 }, (_, i) => file(`${'規'.repeat(300)}/${i}/AGENTS.md`, 'applied', { none: 'given', codex: 'given', 'claude-code': 'given' }));
    const rules = rulesReport(matrix({ files, lints: Array.from({ length: 200 }, () => lint({ message: '誤'.repeat(390) })) }), LINKS, 22_000);
    const { summary } = turnSummary({ ...TURN, entries }, TASK_ID, undefined, rules);
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(summary.split('\n')[0]).toBe('200 rule files apply to this change; every listed client has their rules, by itself or from Groundwork; 200 lint errors');
  });
});
