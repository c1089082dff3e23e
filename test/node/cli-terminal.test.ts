import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

const ESC = '\x1b';
/** Retitles the terminal window, clears the screen, and a C1 CSI that clears it again. */
const TITLE = `${ESC}]0;pwned\x07`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const C1_CLEAR = '\x9b2J';
/** Characters a reader never sees: a bidi override, a zero-width space, tag characters, a lone CR. */
const HIDDEN = ['\u202e', '\u200b', '\u{e0041}\u{e0042}', 'shown\rhidden'];

/** Anything a terminal would act on or hide rather than print. */
const UNSAFE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b\u202e\u{e0000}-\u{e007f}]|\r(?!\n)/u;

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['src/cli/main.ts', ...args], { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Text JSON.stringify leaves raw: a C1 CSI, a bidi override, line and paragraph separators, a tag character. */
const SEPARATED = `clear \x9b2J, reversed \u202eevil, line\u2028and paragraph\u2029end, tag \u{e0041}.`;
let repoWithSeparators: GitFixture | undefined;
function separatorRepo(): GitFixture {
  const made = createGitRepo();
  made.write('AGENTS.md', `${SEPARATED}\n`);
  made.commitAll('separators');
  return made;
}
afterAll(() => repoWithSeparators?.remove());

describe('the human view of repository text', () => {
  let repo: GitFixture;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', `# Rules ${TITLE}\nRun the tests.${CLEAR}\r\nWindows line end stays.\r\n${C1_CLEAR}\n${HIDDEN.join(' ')}\n`);
    // YAML's "\e" and "\a" are ESC and BEL: the name reaches a warning on stderr, the description the index.
    repo.write('.agents/skills/evil/SKILL.md', '---\nname: "evil\\e]0;owned\\a"\ndescription: "Cleans up \\e[2J\\e[H everything"\n---\nBody.\n');
    repo.commitAll('hostile text');
  });
  afterAll(() => repo.remove());

  it('shows control and invisible characters as visible escapes, on stdout and in warnings on stderr', async () => {
    const run = await cli(['--repo', repo.dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(UNSAFE);
    expect(run.stderr).not.toMatch(UNSAFE);
    expect(run.stdout).toContain('# Rules \\u{1b}]0;pwned\\u{7}');
    expect(run.stdout).toContain('Run the tests.\\u{1b}[2J\\u{1b}[H\r\nWindows line end stays.\r\n\\u{9b}2J');
    expect(run.stdout).toContain('\\u{202e} \\u{200b} \\u{e0041}\\u{e0042} shown\\u{d}hidden');
    expect(run.stdout).toContain('Cleans up \\u{1b}[2J\\u{1b}[H everything');
    // The skills validator quotes a bad name as JSON, so its control characters arrive escaped already.
    expect(run.stderr).toContain('warning: skills: .agents/skills/evil/SKILL.md: name "evil\\u001b]0;owned\\u0007"');
  });

  it('keeps --json exact: the model-facing text is unchanged, only warnings on stderr are neutralised', async () => {
    const run = await cli(['--repo', repo.dir, '--json']);
    expect(run.code).toBe(0);
    const turn = AssembledTurnSchema.parse(JSON.parse(run.stdout));
    const user = turn.messages.find((message) => message.role === 'user')?.content ?? '';
    expect(user).toContain(TITLE);
    expect(user).toContain(CLEAR);
    expect(user).toContain(C1_CLEAR);
    expect(run.stderr).not.toMatch(UNSAFE);
    expect(run.stderr).toContain('name "evil\\u001b]0;owned\\u0007"');
  });

  // JSON allows a \u escape for any character, so escaping them changes no value.
  it.each([['--json'], ['--format', 'anthropic'], ['--format', 'openai-responses'], ['--format', 'openai-chat']])(
    'prints %s exact and safe: every control, format and separator character as a \\u escape of the same value',
    async (...flags) => {
      repoWithSeparators ??= separatorRepo();
      const run = await cli(['--repo', repoWithSeparators.dir, ...flags]);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toMatch(UNSAFE);
      expect(run.stdout).not.toMatch(/[\u2028\u2029\x80-\x9f]/);
      expect(run.stdout).toContain('\\u009b2J');
      expect(run.stdout).toContain('\\u202e');
      expect(run.stdout).toContain('\\u2028');
      expect(run.stdout).toContain('\\udb40\\udc41');
      // Parsed, the text is exactly what the file holds.
      expect(JSON.stringify(JSON.parse(run.stdout))).toContain(JSON.stringify(SEPARATED).slice(1, -1));
    },
  );

  it('neutralises what the user typed when it is echoed back in an error', async () => {
    const run = await cli(['--repo', repo.dir, '--agent', `wizard${TITLE}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(UNSAFE);
    expect(run.stderr).toContain('unknown agent "wizard\\u{1b}]0;pwned\\u{7}"');
  });
});
