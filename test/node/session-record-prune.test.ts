/**
 * The session records the hooks keep (cli/hooks/session-record): at most 250, and a write past
 * that leaves the newest 200. Every new session's hook writes one, so a user's directory soon
 * holds 200 and then grows by one a session; the records are dated (a stat each) only when a write
 * takes them past 250, not on every new session. A preload counts the stats of files in the
 * records' directory in one hook run of the package's bin.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStore } from '../../src/cli/hooks/session-record.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

const BIN = new URL('../../dist/groundwork.cjs', import.meta.url).pathname;
const SHA = 'a'.repeat(40);

const COUNTER = `const fs = require('node:fs');
const dir = process.env.GROUNDWORK_STATE_DIR;
let stats = 0;
for (const name of ['statSync', 'lstatSync']) {
  const method = fs[name];
  fs[name] = function (path, ...rest) { if (typeof path === 'string' && path.startsWith(dir + '/')) stats++; return method.call(this, path, ...rest); };
}
process.on('exit', () => { fs.writeSync(2, '\\nrecord stats: ' + stats + '\\n'); });
`;

let scratch: string;
let repo: GitFixture;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'groundwork-records-prune-'));
  writeFileSync(join(scratch, 'count.cjs'), COUNTER);
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Rules\n');
  repo.commitAll('rules');
});

afterAll(() => {
  repo?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** `count` records of other sessions, the first the oldest. */
function fill(dir: string, count: number): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `${String(i).padStart(40, '0')}.json`);
    writeFileSync(path, JSON.stringify({ root: '/elsewhere', commit: SHA, told: SHA, sources: [] }), { mode: 0o600 });
    utimesSync(path, 1_000_000 + i, 1_000_000 + i);
    return path;
  });
}

function hookRun(stateDir: string): Promise<number> {
  const input = { session_id: 'new', transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' };
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--require', join(scratch, 'count.cjs'), BIN, 'hook', 'session-start', '--client', 'claude-code'],
      { cwd: repo.dir, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', GROUNDWORK_STATE_DIR: stateDir, GROUNDWORK_CODE_CACHE: 'off' }, timeout: 60_000 },
      (error, _stdout, stderr) => {
        const counted = /record stats: (\d+)/.exec(stderr);
        if (error || !counted) reject(new Error(`the hook failed or was not counted: ${error?.message ?? ''}\n${stderr}`));
        else resolve(Number(counted[1]));
      },
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

describe('the session records', () => {
  it('keep at most 250: a write past that leaves the newest 200', () => {
    const dir = join(scratch, 'full');
    const records = fill(dir, 250);
    const store = recordStore({ GROUNDWORK_STATE_DIR: dir });
    expect(store.write('new', { root: '/here', commit: SHA, told: SHA, sources: [] })).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith('.json'))).toHaveLength(200);
    // 251 records: the 51 oldest go, the one just written stays.
    expect(records.slice(0, 51).filter((path) => existsSync(path))).toEqual([]);
    expect(records.slice(51).every((path) => existsSync(path))).toBe(true);
    expect(store.read('new', '/here')).toMatchObject({ root: '/here' });

    // Up to 250, a write removes nothing.
    const growing = join(scratch, 'growing');
    fill(growing, 220);
    expect(recordStore({ GROUNDWORK_STATE_DIR: growing }).write('new', { root: '/here', commit: SHA, told: SHA, sources: [] })).toBe(true);
    expect(readdirSync(growing).filter((name) => name.endsWith('.json'))).toHaveLength(221);
  });

  it('are not dated one by one by the hook of a new session in a full directory of 200', async () => {
    const dir = join(scratch, 'steady');
    fill(dir, 200);
    const stats = await hookRun(dir);
    expect(readdirSync(dir).filter((name) => name.endsWith('.json'))).toHaveLength(201);
    expect(stats, 'stats of files in the records directory').toBe(0);
  }, 120_000);
});
