/**
 * `groundwork hook` as the agents run it: the built `dist/cli.js`, the hook input on stdin, the
 * hook output on stdout, on real git repositories. Every agent's session-start, giving only what
 * that agent will not load itself (issue 50), the context again after a compaction, silence
 * outside a repository, the prompt hook's one line when the branch moved under the session, and a
 * notice naming the field for every kind of bad input, never a failed session.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_CLIENTS, type HookClient } from '../../src/cli/hooks/notice.ts';
import { HOOK_PROTOCOLS } from '../../src/cli/hooks/protocols.ts';
import { recordStore } from '../../src/cli/hooks/session-record.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const RULE = 'Run `npm test` before committing.';
const SRC_RULE = 'Tests live beside the code.';

let repo: GitFixture;
let state: string;

beforeAll(() => {
  repo = createGitRepo({ branch: 'main' });
  repo.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
  repo.write('src/AGENTS.md', `# Source rules\n\n${SRC_RULE}\n`);
  repo.write('src/index.ts', 'export {};\n');
  repo.commitAll('rules');
  state = mkdtempSync(join(tmpdir(), 'groundwork-hook-state-'));
});
afterAll(() => {
  repo?.remove();
  rmSync(state, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `holdStdin`: the input is written and the pipe left open, as an agent that never closes it would. */
function hook(argv: string[], input: unknown, env: Record<string, string> = {}, options: { holdStdin?: boolean } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BUILT_CLI, 'hook', ...argv],
      { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', GROUNDWORK_STATE_DIR: state, GROUNDWORK_CODE_CACHE: 'off', ...env }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    child.stdin?.on('error', () => {});
    if (options.holdStdin) child.stdin?.write(text);
    else child.stdin?.end(text);
  });
}

/** A session-start input in the client's own shape. */
function startInput(client: HookClient, cwd: string, source: string, session = `s-${client}`): Record<string, unknown> {
  if (client === 'copilot') return { sessionId: session, timestamp: Date.now(), cwd, source };
  return { session_id: session, transcript_path: '/tmp/transcript.jsonl', cwd, hook_event_name: 'SessionStart', source, ...(client === 'gemini-cli' ? { timestamp: new Date().toISOString() } : { model: 'm', permission_mode: 'default' }) };
}

function promptInput(client: Exclude<HookClient, 'copilot'>, cwd: string, session: string): Record<string, unknown> {
  const event = client === 'gemini-cli' ? 'BeforeAgent' : 'UserPromptSubmit';
  return { session_id: session, transcript_path: '/tmp/transcript.jsonl', cwd, hook_event_name: event, prompt: 'go on', ...(client === 'codex' ? { model: 'm', permission_mode: 'default', turn_id: 't' } : {}) };
}

/** The context a reply carries, after holding the reply to the client's documented output. */
function contextOf(client: HookClient, event: 'session-start' | 'prompt-submit', run: Run): string {
  expect(run.code, run.stderr).toBe(0);
  const spec = HOOK_PROTOCOLS[client].events[event];
  if (!spec) throw new Error(`${client} has no ${event}`);
  const output = spec.output().parse(JSON.parse(run.stdout)) as { additionalContext?: string; hookSpecificOutput?: { additionalContext?: string } };
  return (client === 'copilot' ? output.additionalContext : output.hookSpecificOutput?.additionalContext) ?? '';
}

/** The client each hook's context is for: Copilot's hook is Copilot CLI's (and the cloud agent's). */
const LABEL: Readonly<Record<HookClient, string>> = { 'claude-code': 'claude-code', codex: 'codex', 'gemini-cli': 'gemini-cli', copilot: 'copilot:cli' };

/** The line naming the rule files the client loads itself, by path and blob. */
function loadedLine(context: string): string {
  return context.split('\n').find((line) => / loads these rule files itself at start, so they are not repeated here: /.test(line)) ?? '';
}

describe('groundwork hook session-start', () => {
  for (const client of HOOK_CLIENTS) {
    it(`gives ${client} the context of the repository at its cwd, in its own output, without notices it cannot act on`, async () => {
      const context = contextOf(client, 'session-start', await hook(['session-start', '--client', client], startInput(client, join(repo.dir, 'src'), client === 'copilot' ? 'new' : 'startup')));
      // Gemini CLI reads GEMINI.md only (its default context.fileName), so it is given both
      // AGENTS.md files; the others load them at start, and have them named, not repeated.
      if (client === 'gemini-cli') {
        expect(context).toContain(RULE);
        expect(context).toContain(SRC_RULE);
      } else {
        expect(context).not.toContain(RULE);
        expect(context).not.toContain(SRC_RULE);
        expect(loadedLine(context)).toMatch(/AGENTS\.md \(blob [0-9a-f]{12}\), src\/AGENTS\.md \(blob [0-9a-f]{12}\)\.$/);
      }
      expect(context).toMatch(new RegExp(`\\(Groundwork context of .* at [0-9a-f]{40} for ${LABEL[client]}, digest sha256:[0-9a-f]{64}\\.\\)$`));
      // History and memory are not available to a local run: not run, so no notice about them.
      expect(context).not.toMatch(/provider="(history|memory|task-facts)"/);
      expect(context).not.toContain('was not read');
    });
  }

  it('gives the rules back after a compaction, and says so in the task line', async () => {
    for (const client of ['claude-code', 'codex'] as const) {
      const context = contextOf(client, 'session-start', await hook(['session-start', '--client', client], startInput(client, repo.dir, 'compact')));
      // What the agent loads at start it has again after a compaction; the rest comes back from here.
      expect(loadedLine(context)).toMatch(/: AGENTS\.md \(blob [0-9a-f]{12}\)\.$/);
      expect(context).toContain('Session compacted: the conversation so far was summarized, and these rules and skills apply as before.');
    }
  });

  it('takes the client version after @, and defaults to Claude Code when no --client is given', async () => {
    const versioned = contextOf('claude-code', 'session-start', await hook(['session-start', '--client', 'claude-code@2.1.332'], startInput('claude-code', repo.dir, 'startup')));
    expect(versioned).toMatch(/for claude-code@2\.1\.332, digest/);
    expect(contextOf('claude-code', 'session-start', await hook(['session-start'], startInput('claude-code', repo.dir, 'resume')))).toContain('Session resumed.');
  });

  it('says nothing at all outside a repository, or in one with nothing committed, for every agent', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'groundwork-not-a-repo-'));
    const empty = createGitRepo();
    try {
      for (const client of HOOK_CLIENTS) {
        for (const cwd of [outside, empty.dir, join(outside, 'gone')]) {
          expect(await hook(['session-start', '--client', client], startInput(client, cwd, client === 'copilot' ? 'new' : 'startup')), `${client} ${cwd}`).toEqual({ code: 0, stdout: '', stderr: '' });
        }
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
      empty.remove();
    }
  });

  it('never fails the session: each bad input is a one-line notice naming what is wrong, in the agent’s way', async () => {
    const good = startInput('claude-code', repo.dir, 'startup');
    const cases: Array<[string[], unknown, RegExp]> = [
      [['session-start'], 'not json', /the hook input on stdin is not JSON/],
      [['session-start'], '', /the hook input on stdin is empty/],
      [['session-start'], '[1, 2]', /the hook input on stdin is not a JSON object/],
      [['session-start'], { ...good, cwd: undefined }, /the hook input's cwd: /],
      // Issue 55 item 5: an over-long source was blamed on cwd.
      [['session-start'], { ...good, source: 'x'.repeat(65) }, /^groundwork: the hook input's source: must be at most 64 characters$/],
      [['session-start'], { ...good, session_id: 'x'.repeat(257) }, /^groundwork: the hook input's session_id: must be at most 256 characters$/],
      [['session-start'], { ...good, hook_event_name: 'UserPromptSubmit' }, /the hook input's hook_event_name: must be "SessionStart": this is the session-start hook/],
      [['session-start'], `{"cwd": "${'a'.repeat(1024 * 1024)}"}`, /the hook input is over 1048576 bytes/],
      [['session-end'], good, /unknown hook "session-end" \(groundwork answers session-start and prompt-submit\)/],
      // One resolution of client names for every entry point (context/client), then the agents with a hook.
      [['session-start', '--client', 'vim'], good, /--client: unknown client "vim": must be one of none, codex, claude-code, gemini-cli, copilot, cursor/],
      [['session-start', '--client', 'cursor'], good, /--client: Cursor has no hook groundwork speaks \(hooks: claude-code, codex, gemini-cli, copilot\); it gets the context through MCP$/],
      [['session-start', '--client', 'none'], good, /--client: none names no agent/],
      [['session-start', '--client', 'copilot:vscode'], good, /--client: the copilot hook is Copilot CLI's and the cloud agent's/],
      [['session-start', '--client', 'codex@x y'], good, /--client: client version "x y" is not a version number such as 2\.1\.332/],
      [['session-start', '--bogus'], good, /unknown option --bogus/],
      [['session-start', '--agent', 'nobody'], good, /--agent: /],
      // The input's pipe never ends, so the hook cannot finish before its deadline: it answers then.
      [['session-start', '--deadline-ms', '300'], { held: good }, /took longer than 300 ms/],
    ];
    for (const [argv, given, notice] of cases) {
      const held = typeof given === 'object' && given !== null && 'held' in given;
      const input: unknown = held ? (given as { held: unknown }).held : given;
      const run = await hook(argv, input, {}, { holdStdin: held });
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(0);
      const output = JSON.parse(run.stdout) as { systemMessage: string };
      expect(Object.keys(output)).toEqual(['systemMessage']);
      expect(output.systemMessage).not.toContain('\n');
      expect(output.systemMessage).toMatch(/^groundwork: /);
      expect(output.systemMessage).toMatch(notice);
    }
  });

  it('tells Copilot through stderr and exit 2, its documented warning, and refuses a prompt hook Copilot cannot take', async () => {
    const bad = await hook(['session-start', '--client', 'copilot'], { sessionId: 's', cwd: repo.dir, source: 'x'.repeat(65) });
    expect(bad).toEqual({ code: 2, stdout: '', stderr: "groundwork: the hook input's source: must be at most 64 characters\n" });
    const prompt = await hook(['prompt-submit', '--client', 'copilot'], { sessionId: 's', cwd: repo.dir, prompt: 'x' });
    expect(prompt).toMatchObject({ code: 2, stdout: '' });
    expect(prompt.stderr).toMatch(/documents no prompt-submit hook whose output can add context/);
  });

  it('prints its usage for --help after the hook name, as before it', async () => {
    for (const argv of [['--help'], ['session-start', '--help'], ['prompt-submit', '-h']]) {
      const run = await hook(argv, '');
      expect(run.code, argv.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: groundwork hook session-start\|prompt-submit/);
    }
  });
});

describe('groundwork hook session-start: only what the agent will not load itself (issue 50)', () => {
  const AGENTS = 'Root rule from AGENTS.md.';
  const GEMINI = 'Root rule from GEMINI.md.';
  const CLAUDE = 'Source rule from src/CLAUDE.md.';
  const COPILOT = 'Rule from copilot-instructions.md.';
  let mixed: GitFixture;
  beforeAll(() => {
    mixed = createGitRepo({ branch: 'main' });
    mixed.write('AGENTS.md', `# Rules\n\n${AGENTS}\n`);
    mixed.write('GEMINI.md', `# Gemini\n\n${GEMINI}\n`);
    mixed.write('src/CLAUDE.md', `# Source\n\n${CLAUDE}\n`);
    mixed.write('.github/copilot-instructions.md', `${COPILOT}\n`);
    mixed.write('src/index.ts', 'export {};\n');
    mixed.commitAll('rules for every agent');
  });
  afterAll(() => mixed?.remove());

  // Started in src/. Groundwork's own choice (the union) gives AGENTS.md, not the GEMINI.md beside
  // it (first present wins), so GEMINI.md reaches only the agents that load it themselves.
  // Facts (src/clients, docs/clients.md): Claude Code reads CLAUDE.md on the way and no AGENTS.md
  // once one is (claude.chain, claude.agents-md); Codex reads AGENTS.md only (codex.chain); Gemini
  // CLI GEMINI.md only (gemini.chain); Copilot CLI every AGENTS.md, CLAUDE.md and GEMINI.md from
  // the root to its directory and copilot-instructions.md (copilot.cli.chain).
  const cases: ReadonlyArray<{ client: HookClient; named: string[]; given: string[]; absent: string[] }> = [
    { client: 'claude-code', named: ['src/CLAUDE.md'], given: [AGENTS, COPILOT], absent: [CLAUDE, GEMINI] },
    { client: 'codex', named: ['AGENTS.md'], given: [CLAUDE, COPILOT], absent: [AGENTS, GEMINI] },
    { client: 'gemini-cli', named: ['GEMINI.md'], given: [AGENTS, CLAUDE, COPILOT], absent: [GEMINI] },
    { client: 'copilot', named: ['AGENTS.md', 'src/CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md'], given: [], absent: [AGENTS, CLAUDE, GEMINI, COPILOT] },
  ];
  for (const { client, named, given, absent } of cases) {
    it(`gives ${client} the rules it will not load, each saying why, and names the ones it loads by path and blob`, async () => {
      const context = contextOf(client, 'session-start', await hook(['session-start', '--client', client], startInput(client, join(mixed.dir, 'src'), client === 'copilot' ? 'new' : 'startup')));
      for (const text of given) expect(context, text).toContain(text);
      for (const text of absent) expect(context, text).not.toContain(text);
      const line = loadedLine(context);
      const listed = [...line.matchAll(/([\w./-]+) \(blob [0-9a-f]{12}\)/g)].map((match) => match[1]);
      expect(listed).toEqual(named);
      // Every rules entry given says why this agent needs it from Groundwork.
      const rulesEntries = [...context.matchAll(/<groundwork-context [^>]*provider="rules"[^>]*title="([^"]+)"[^>]*>/g)].filter((match) => !match[1]?.startsWith('Rule files '));
      expect(rulesEntries).toHaveLength(given.length);
      for (const entry of rulesEntries) expect(entry[0], entry[1]).toMatch(/ why="[^"]+"/);
    });
  }

  it('follows the version named after @: Claude Code before 2.1.277 reads no AGENTS.md, so it is given', async () => {
    const older = contextOf('claude-code', 'session-start', await hook(['session-start', '--client', 'claude-code@2.1.200'], startInput('claude-code', join(repo.dir, 'src'), 'startup')));
    expect(older).toContain(RULE);
    expect(older).toContain(SRC_RULE);
    expect(older).toContain('why="Claude Code before 2.1.277 reads AGENTS.md only through an @AGENTS.md import"');
    expect(loadedLine(older)).toBe('');
  });
});

describe('groundwork hook prompt-submit', () => {
  const clients = ['claude-code', 'codex', 'gemini-cli'] as const;

  it('says nothing for a session groundwork did not start, or outside a repository', async () => {
    for (const client of clients) {
      expect(await hook(['prompt-submit', '--client', client], promptInput(client, repo.dir, 'never-started'))).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(await hook(['prompt-submit', '--client', client], promptInput(client, tmpdir(), 'never-started'))).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  // Fifteen hook processes, each comparing two commits (and, since issue 51, their rule sets): the work of several tests, so a loaded machine gets the time they would.
  it('adds one line when a rules file the session was given changed under it, once; nothing for commits that touch none', async () => {
    const moving = createGitRepo({ branch: 'main' });
    try {
      moving.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
      moving.write('src/AGENTS.md', `# Source rules\n\n${SRC_RULE}\n`);
      const pinned = moving.commitAll('rules');
      for (const client of clients) {
        const session = `moving-${client}`;
        contextOf(client, 'session-start', await hook(['session-start', '--client', client], startInput(client, join(moving.dir, 'src'), 'startup', session)));
        const prompt = () => hook(['prompt-submit', '--client', client], promptInput(client, join(moving.dir, 'src'), session));
        expect(await prompt()).toEqual({ code: 0, stdout: '', stderr: '' });

        moving.write(`notes-${client}.txt`, 'not a rule\n');
        moving.commitAll('a commit that touches no rule');
        expect(await prompt(), 'an unrelated commit').toEqual({ code: 0, stdout: '', stderr: '' });

        // Claude Code and Codex loaded src/AGENTS.md themselves (named, not given): an edit is news to them too.
        moving.write('src/AGENTS.md', `# Source rules\n\nTests live in test/ (${client}).\n`);
        const moved = moving.commitAll('a new source rule');
        const line = contextOf(client, 'prompt-submit', await prompt());
        expect(line).toMatch(new RegExp(`^Groundwork: main moved [0-9a-f]{7} -> ${moved.slice(0, 7)} since this session's context was read; changed since: src/AGENTS\\.md; re-read them before you act\\.$`));
        // Told once: the next prompt, with nothing new, adds nothing.
        expect(await prompt(), 'told already').toEqual({ code: 0, stdout: '', stderr: '' });
      }
      expect(pinned).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      moving.remove();
    }
  }, 120_000);

  it('says how the rules that apply changed for its agent: a CLAUDE.md Claude Code loads itself, the AGENTS.md files Groundwork must now give it (issue 50)', async () => {
    const moving = createGitRepo({ branch: 'main' });
    try {
      moving.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
      moving.write('src/AGENTS.md', `# Source rules\n\n${SRC_RULE}\n`);
      moving.commitAll('rules');
      const expected: Record<'claude-code' | 'codex', string[]> = {
        'claude-code': [
          '- AGENTS.md is now given by Groundwork: it applies to src; Claude Code reads CLAUDE.md instead',
          '- CLAUDE.md added: it applies to src; Claude Code loads it itself at start',
          '- src/AGENTS.md is now given by Groundwork: it applies to src; Claude Code reads CLAUDE.md, not AGENTS.md, when one is on its way (CLAUDE.md)',
        ],
        codex: ['- CLAUDE.md added: shadowed by AGENTS.md in ., which the client loads itself instead'],
      };
      const sessions = (['claude-code', 'codex'] as const).map((client) => ({ client, session: `ruled-${client}` }));
      for (const { client, session } of sessions) contextOf(client, 'session-start', await hook(['session-start', '--client', client], startInput(client, join(moving.dir, 'src'), 'startup', session)));
      moving.write('CLAUDE.md', '# Claude\n\nKeep commits small.\n');
      const moved = moving.commitAll('a CLAUDE.md beside the AGENTS.md');
      for (const { client, session } of sessions) {
        const prompt = () => hook(['prompt-submit', '--client', client], promptInput(client, join(moving.dir, 'src'), session));
        const said = contextOf(client, 'prompt-submit', await prompt()).split('\n');
        expect(said[0]).toMatch(new RegExp(`^Groundwork: main moved [0-9a-f]{7} -> ${moved.slice(0, 7)} since this session's context was read; the rules and skills this session was given are unchanged there\\.$`));
        expect(said[1]).toBe(`The rules that apply here changed (those given by Groundwork: re-read them at ${moved.slice(0, 7)}):`);
        expect(said.slice(2), client).toEqual(expected[client]);
        expect(await prompt(), 'told already').toEqual({ code: 0, stdout: '', stderr: '' });
      }
    } finally {
      moving.remove();
    }
  });

  it('says when another branch was checked out under the session', async () => {
    const switching = createGitRepo({ branch: 'main' });
    try {
      switching.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
      switching.commitAll('rules');
      contextOf('claude-code', 'session-start', await hook(['session-start'], startInput('claude-code', switching.dir, 'startup', 'switching')));
      switching.git('checkout', '--quiet', '-b', 'feature');
      switching.write('AGENTS.md', '# Rules\n\nOnly on the feature branch.\n');
      switching.commitAll('feature rules');
      const line = contextOf('claude-code', 'prompt-submit', await hook(['prompt-submit'], promptInput('claude-code', switching.dir, 'switching')));
      expect(line).toMatch(/^Groundwork: The checkout moved from main \([0-9a-f]{7}\) to feature \([0-9a-f]{7}\) since this session's context was read; changed since: AGENTS\.md; re-read them before you act\.$/);
    } finally {
      switching.remove();
    }
  });

  it('keeps no record in a state directory others may write to, and the session still goes on', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'groundwork-shared-state-'));
    try {
      chmodSync(shared, 0o777);
      const env = { GROUNDWORK_STATE_DIR: shared };
      contextOf('claude-code', 'session-start', await hook(['session-start'], startInput('claude-code', repo.dir, 'startup', 'shared'), env));
      expect(recordStore(env).read('shared', repo.dir)).toBeUndefined();
      expect(await hook(['prompt-submit'], promptInput('claude-code', repo.dir, 'shared'), env)).toEqual({ code: 0, stdout: '', stderr: '' });
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

describe('the session record', () => {
  it('reads back what it wrote, and ignores a record that is not a regular file without blocking on it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'groundwork-records-'));
    try {
      const store = recordStore({ GROUNDWORK_STATE_DIR: join(dir, 'sessions') });
      const record = { root: repo.dir, commit: 'a'.repeat(40), told: 'b'.repeat(40), branch: 'main', sources: [] };
      expect(store.write('s1', record)).toBe(true);
      expect(store.read('s1', repo.dir)).toEqual(record);
      expect(store.read('s1', '/another/root')).toBeUndefined();
      expect(store.read('s2', repo.dir)).toBeUndefined();
      // A FIFO where a record would be: opened for read it would block the hook forever.
      const fifoStore = recordStore({ GROUNDWORK_STATE_DIR: join(dir, 'fifo') });
      mkdirSync(join(dir, 'fifo'), { mode: 0o700 });
      expect(fifoStore.write('s3', record)).toBe(true);
      const [name] = execFileSync('ls', [join(dir, 'fifo')], { encoding: 'utf8' }).trim().split('\n');
      rmSync(join(dir, 'fifo', name ?? ''));
      execFileSync('mkfifo', [join(dir, 'fifo', name ?? '')]);
      expect(fifoStore.read('s3', repo.dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
