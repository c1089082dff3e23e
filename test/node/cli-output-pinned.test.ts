/**
 * What `groundwork context --json` and the session-start hook print, byte for byte, on a
 * repository built the same way every time (fixed dates and names, so the same commit ids), with a
 * packed history (project files stored as deltas, whose sizes the inventory shows), nested rules
 * and a skill. Speed work on the CLI (issue 56: sizes from object headers, what the hook loads)
 * must not change a byte of it. The files under test/fixtures/pinned-output/ were written by
 * main's build before that work (f75c0c1); only what differs by machine is masked: the
 * repository's path, a run's duration, and what is derived from the path (section boundaries,
 * digests).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

/** The package's bin, as an agent's hook file runs it; another build's with GROUNDWORK_PINNED_CLI (how the fixtures were written). */
const BIN = process.env['GROUNDWORK_PINNED_CLI'] ?? new URL('../../dist/groundwork.cjs', import.meta.url).pathname;

let repo: GitFixture;
let state: string;

function commit(message: string, day: number): void {
  repo.git('add', '--all');
  const date = `2026-01-${String(day).padStart(2, '0')}T12:00:00Z`;
  execFileSync('git', ['commit', '--quiet', '-m', message], { cwd: repo.dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Pinned', GIT_AUTHOR_EMAIL: 'pinned@example.test', GIT_COMMITTER_NAME: 'Pinned', GIT_COMMITTER_EMAIL: 'pinned@example.test', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
}

beforeAll(() => {
  repo = createGitRepo();
  state = mkdtempSync(join(tmpdir(), 'groundwork-pinned-state-'));
  const lock = Array.from({ length: 4000 }, (_, i) => `  package-${i}: ${i % 13}.${i % 7}.${i % 5}`);
  for (let version = 0; version < 4; version++) {
    lock[version * 311] = `  changed-${version}: 1.0.${version}`;
    repo.write('pnpm-lock.yaml', `lockfileVersion: '9.0'\npackages:\n${lock.join('\n')}\n`);
    repo.write('README.md', `# Pinned\n\nVersion ${version} of a repository whose output is pinned.\n`);
    repo.write('package.json', `${JSON.stringify({ name: 'pinned', version: `1.0.${version}`, private: true }, null, 2)}\n`);
    repo.write('AGENTS.md', `# Rules\n\nRun the tests before you commit (version ${version}).\n`);
    repo.write('packages/app/AGENTS.md', '# App rules\n\nKeep the app small.\n');
    repo.write('packages/app/package.json', `${JSON.stringify({ name: 'app', version: `2.0.${version}` }, null, 2)}\n`);
    repo.write('packages/app/tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
    repo.write('.agents/skills/release/SKILL.md', '---\nname: release\ndescription: How to cut a release of the app.\n---\n\n# Release\n\nTag, then publish.\n');
    commit(`version ${version}`, version + 1);
  }
  // Deltas in a pack, as in any cloned repository: the inventory's sizes come from their headers.
  repo.git('repack', '-a', '-d', '-f', '--quiet');
  repo.git('prune-packed');
}, 60_000);

afterAll(() => {
  repo.remove();
  rmSync(state, { recursive: true, force: true });
});

async function run(args: string[], cwd: string, input = ''): Promise<string> {
  const child = promisify(execFile)(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, GROUNDWORK_STATE_DIR: state, GROUNDWORK_CODE_CACHE: 'off' }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin?.end(input);
  return (await child).stdout;
}

/** Masks what differs by machine: the repository's path, durations, and the boundaries and digests derived from the path. */
function masked(text: string): string {
  const boundaries = new Map<string, string>();
  return text
    .replaceAll(repo.dir, '<repo>')
    .replace(/"durationMs": ?\d+/g, '"durationMs": 0')
    .replace(/boundary=\\?"([0-9a-f]{16})\\?"/g, (whole, boundary: string) => {
      if (!boundaries.has(boundary)) boundaries.set(boundary, `b${boundaries.size}`);
      return whole.replace(boundary, boundaries.get(boundary) ?? '');
    })
    .replace(/sha256:[0-9a-f]{64}/g, 'sha256:<digest>')
    .replace(/digest [0-9a-f]{16,64}/g, 'digest <digest>');
}

describe('the CLI output, byte for byte', () => {
  it('context --json in a subdirectory', async () => {
    await expect(masked(await run(['context', '--json'], join(repo.dir, 'packages', 'app')))).toMatchFileSnapshot('../fixtures/pinned-output/context-app.json');
  });

  it('context --json at the root', async () => {
    await expect(masked(await run(['context', '--json'], repo.dir))).toMatchFileSnapshot('../fixtures/pinned-output/context-root.json');
  });

  it.each(['startup', 'compact'])('the session-start hook for Claude Code (%s)', async (source) => {
    const cwd = join(repo.dir, 'packages', 'app');
    const input = JSON.stringify({ session_id: `pinned-${source}`, transcript_path: join(state, 'transcript.jsonl'), cwd, hook_event_name: 'SessionStart', source, model: 'pinned', permission_mode: 'default' });
    await expect(masked(await run(['hook', 'session-start', '--client', 'claude-code'], cwd, input))).toMatchFileSnapshot(`../fixtures/pinned-output/hook-${source}.json`);
  });
});
