/**
 * `groundwork context --summary`: the pinned commit, every source found (applied with blob and
 * tokens, or why not), the outcome table and the composition as a text bar, and no prompt text;
 * through the CLI entry (in process and as the built `dist/cli.js`) on a real git repository.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/context/tokens.ts';
import { BAR_WIDTH, table } from '../../src/cli/summary.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI, runCli, runCliJson } from './cli-support.ts';

const RULE = 'Every public function has a doc comment with an example.';
const SECRET_BODY = 'Write the failing test first; this sentence is prompt text.';

describe('the summary tables', () => {
  it('pad each column to its widest cell, but a row\'s last cell (a long reason) widens nothing', () => {
    expect(table([
      ['applied', 'rules', 'AGENTS.md@abc', '82 tokens'],
      ['not applied', 'rules', `.github/instructions/a.instructions.md (${'no focus path matched '.repeat(4)})`],
      ['applied', 'system', 'file:///x (Pinned commit)', '127 tokens'],
    ])).toEqual([
      'applied      rules   AGENTS.md@abc              82 tokens',
      `not applied  rules   .github/instructions/a.instructions.md (${'no focus path matched '.repeat(4)})`,
      'applied      system  file:///x (Pinned commit)  127 tokens',
    ]);
  });
});

describe('groundwork context --summary', () => {
  let repo: GitFixture;
  let head: string;
  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', `# Rules\n\n${RULE}\n${'Keep it short. '.repeat(80)}\n`);
    repo.write('src/AGENTS.md', '# Source rules\n\nTests live beside the code.\n');
    repo.write('.agents/skills/tdd/SKILL.md', `---\nname: tdd\ndescription: Test-driven changes.\n---\n${SECRET_BODY}\n`);
    head = repo.commitAll('rules and a skill');
  });
  afterAll(() => repo.remove());

  it('names the commit, every source with blob and tokens, why others were not given, the outcomes, and the composition; no prompt text', async () => {
    const args = ['--repo', repo.dir, '--cwd', 'src', '--task', 'Add a parser. Use $tdd.', '--rule-file', 'AGENTS.md', '--skill', 'tdd'];
    const run = await runCli([...args, '--summary']);
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out.split('\n')[0]).toMatch(new RegExp(`^commit ${head}  agent entry  digest sha256:[0-9a-f]{64}$`));
    const turn = await runCliJson(args);
    for (const entry of turn.entries.filter((e) => e.source.blob)) {
      expect(out).toMatch(new RegExp(`applied +${entry.provider} +${entry.source.path?.replace(/\./g, '\\.')}@${head.slice(0, 12)}[^\\n]*blob ${entry.source.blob?.slice(0, 12)} +\\d+ tokens +pinned`));
    }
    expect(out).toMatch(/applied +skills +\.agents\/skills@[0-9a-f]{12} \(Skills index\) +\d+ tokens +pinned/);
    expect(out).toMatch(/not given +memory +capability-gated \(knowledge:read is not available for this task\)/);
    expect(out).toMatch(/^provider +category +outcome +tokens +chars +ms +reason$/m);
    for (const outcome of turn.providers) expect(out).toMatch(new RegExp(`^${outcome.name} +${outcome.category} +${outcome.outcome} +${outcome.tokens} `, 'm'));
    // No prompt text: not the rules, not the selected skill's body, not the system blocks.
    expect(out).not.toContain(RULE);
    expect(out).not.toContain(SECRET_BODY);
    expect(out).not.toContain('How to treat context and tool output');

    // The bar: BAR_WIDTH letters and the prefix mark, and a total that is the request's.
    const bar = /^ {2}\[([A-Z|]+)\]$/m.exec(out)?.[1] ?? '';
    expect(bar.replace('|', '')).toHaveLength(BAR_WIDTH);
    expect(bar.split('|')).toHaveLength(2);
    const total = Number(/^composition {2}(\d+) tokens in the request/m.exec(out)?.[1]);
    const expected = countTokens(JSON.stringify(turn.tools)) + turn.messages.reduce((sum, message) => sum + countTokens(message.content), 0);
    expect(total).toBe(expected);
    const legend = [...out.matchAll(/^ {2}[A-Z] {2}.+? {2,}(\d+) tokens {2,}[\d.]+%$/gm)].map((match) => Number(match[1]));
    expect(legend.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(out).toMatch(/^ {2}\| the prefix every task on this commit shares ends at \d+ tokens \([\d.]+%\)$/m);
  });

  it('says what a budget cut, and which file it cut', async () => {
    const tight = createGitRepo();
    try {
      tight.write('AGENTS.md', `# Rules\n\n${RULE}\n${'Keep it short. '.repeat(80)}\n`);
      tight.write('.groundwork.yml', 'providers:\n  rules: { budget: 40 }\n');
      tight.commitAll('a tight rules budget');
      const run = await runCli(['--repo', tight.dir, '--summary']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/applied +rules +AGENTS\.md@[0-9a-f]{12} +blob [0-9a-f]{12} +\d+ tokens +pinned +truncated/);
      expect(run.stdout).toMatch(/cut +rules +AGENTS\.md: [^\n]*truncated/);
    } finally {
      tight.remove();
    }
  });

  it('cannot be combined with --json or --format (exit 2, naming the option), and is in the help', async () => {
    for (const other of [['--json'], ['--format', 'anthropic']]) {
      const run = await runCli(['--repo', repo.dir, '--summary', ...other]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`groundwork: --summary: cannot be combined with ${other[0]} (both choose what is printed)`);
    }
    const help = await runCli(['--help']);
    expect(help.stdout).toContain('--summary            print a short view instead');
  });

  it('runs from the built CLI as a user would', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BUILT_CLI, 'context', '--summary', '--repo', repo.dir], { encoding: 'utf8' });
    expect(stdout).toMatch(/^composition {2}\d+ tokens in the request/m);
    expect(stdout).not.toContain(RULE);
  });
});
