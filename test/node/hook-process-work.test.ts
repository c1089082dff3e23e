/**
 * What a session-start hook run asks of Node besides its own thread's work, counted in one run of
 * the package's bin as an agent's hook file runs it (stdin a pipe). The hook starts for every
 * session and after every compaction (issue 56 goal 1: at most 2.5x `node -e 0`), so work Node
 * does only because of how we asked is a cost on each of them:
 * - a job for libuv's thread pool: Node's callback and promise `fs` calls are such jobs, and the
 *   first one starts the pool's threads. Node's async_hooks report each as a resource of type
 *   `FSREQCALLBACK` or `FSREQPROMISE` ("Type" in https://nodejs.org/docs/latest-v22.x/api/async_hooks.html);
 *   the git directory's small files are read synchronously (sources/git/small-files);
 * - the local time zone: V8's `Date.prototype.toISOString` looks it up (ICU reads /etc/localtime)
 *   although it prints UTC; the hook prints no local time, and commit dates are written from the
 *   UTC fields (sources/commit-info).
 * - stderr: `process.stderr` is a stream Node builds when it is first read (for a pipe, a socket);
 *   a command that has nothing to say there makes none (cli/stdio). The hook's does get made, by
 *   Node itself: `net.Socket#_destroy` compares the ending stdin pipe with `process.stderr`.
 * A preload records all three; the same hook in a linked worktree (a `.git` file and `commondir`),
 * and `context --json`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

const BIN = new URL('../../dist/groundwork.cjs', import.meta.url).pathname;

/** Date's methods that need the local time zone, and toISOString (V8 asks for it there too). */
const LOCAL_TIME_METHODS = ['toISOString', 'toJSON', 'toString', 'toDateString', 'toTimeString', 'toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'getTimezoneOffset', 'getFullYear', 'getMonth', 'getDate', 'getDay', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];

const RECORDER = `const types = {};
require('node:async_hooks').createHook({ init(id, type) { types[type] = (types[type] ?? 0) + 1; } }).enable();
const localTime = {};
for (const name of ${JSON.stringify(LOCAL_TIME_METHODS)}) {
  const method = Date.prototype[name];
  Date.prototype[name] = function (...args) { localTime[name] = (localTime[name] ?? 0) + 1; return method.apply(this, args); };
}
let stderrMade = 0;
const stderr = Object.getOwnPropertyDescriptor(process, 'stderr');
Object.defineProperty(process, 'stderr', { configurable: true, enumerable: stderr.enumerable, get() { stderrMade++; return stderr.get.call(this); } });
process.on('exit', () => { require('node:fs').writeSync(2, '\\nprocess work: ' + JSON.stringify({ types, localTime, stderrMade }) + '\\n'); });
`;

interface Work {
  types: Record<string, number>;
  localTime: Record<string, number>;
  /** Reads of `process.stderr`, which makes Node build the stream (for a pipe, a socket). */
  stderrMade: number;
}

let repo: GitFixture;
let linked: string;
let scratch: string;

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Rules\n\nRun the tests before you commit.\n');
  repo.write('packages/app/AGENTS.md', '# App rules\n\nKeep the app small.\n');
  repo.commitAll('rules');
  scratch = mkdtempSync(join(tmpdir(), 'groundwork-hook-work-'));
  linked = join(scratch, 'linked');
  repo.git('worktree', 'add', '--quiet', '-b', 'side', linked);
  writeFileSync(join(scratch, 'record.cjs'), RECORDER);
});

afterAll(() => {
  repo?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** One run of the bin with the recorder, from `cwd`; `input` goes to its stdin (a pipe), else stdin is closed. */
function recordRun(args: string[], cwd: string, input?: string): Promise<{ work: Work; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--require', join(scratch, 'record.cjs'), BIN, ...args],
      { cwd, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', GROUNDWORK_STATE_DIR: join(scratch, 'state'), GROUNDWORK_CODE_CACHE: 'off' }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const recorded = /process work: (\{.*\})/.exec(stderr);
        if (error || !recorded?.[1]) reject(new Error(`the run failed or was not recorded: ${error?.message ?? ''}\n${stderr}`));
        else resolve({ work: JSON.parse(recorded[1]) as Work, stdout });
      },
    );
    child.stdin?.end(input);
  });
}

function sessionStart(root: string): Promise<{ work: Work; stdout: string }> {
  const cwd = join(root, 'packages', 'app');
  const input = { session_id: 's', transcript_path: '/tmp/transcript.jsonl', cwd, hook_event_name: 'SessionStart', source: 'startup', model: 'm', permission_mode: 'default' };
  return recordRun(['hook', 'session-start', '--client', 'claude-code'], cwd, JSON.stringify(input));
}

const threadPoolJobs = (work: Work) => Object.entries(work.types).filter(([type]) => type === 'FSREQCALLBACK' || type === 'FSREQPROMISE');

describe('what a session-start hook (and a context) run asks of Node', () => {
  it('gives libuv\'s thread pool no job and looks up no local time, in a repository', async () => {
    const { work, stdout } = await sessionStart(repo.dir);
    expect(stdout, 'the hook gave the context').toContain('Working directory: packages/app');
    expect(work.types['PIPEWRAP'], 'the recorder saw the stdin pipe: see this file\'s header').toBeGreaterThan(0);
    expect(threadPoolJobs(work)).toEqual([]);
    expect(work.localTime).toEqual({});
  }, 120_000);

  it('does the same in a linked worktree, whose .git is a file pointing at the main repository', async () => {
    const { work, stdout } = await sessionStart(linked);
    expect(stdout).toContain('Working directory: packages/app');
    expect(threadPoolJobs(work)).toEqual([]);
    expect(work.localTime).toEqual({});
  }, 120_000);

  it('makes no stderr stream for a context run that has nothing to say there (the hook\'s stdin pipe makes one when it ends: Node reads process.stderr in net.Socket#_destroy)', async () => {
    const { work, stdout } = await recordRun(['context', '--json'], join(repo.dir, 'packages', 'app'));
    expect(JSON.parse(stdout)).toHaveProperty('digest');
    expect(work.stderrMade, 'process.stderr was read').toBe(0);
  }, 120_000);
});
