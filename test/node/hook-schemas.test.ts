/**
 * How many zod objects (schemas and checks) the session-start hook builds in one run of the
 * package's bin, as an agent's hook file runs it. Every one is construction plus memory the run
 * keeps, in a process that starts for each session (issue 56 goal 1: at most 2.5x `node -e 0`).
 * A provider's config schema is built only when a settings layer names the provider: a run that
 * names none takes each provider's declared defaults (context/provider-config). zod calls its
 * global post-processor (`globalThis.__zod_globalConfig.postProcessor`, zod/v4/core/core.js) once
 * for every object it constructs; a preload counts those calls.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

const BIN = new URL('../../dist/groundwork.cjs', import.meta.url).pathname;

/**
 * 478 at main 24b0d84, when every provider's settings schema was built on each run (registry
 * checks, then a parse of `{}` for the defaults) and the bundled agents file (no agents) was
 * parsed; 202 when this was set: the runner's checks of the providers' answers (105, built on the
 * first answer and shared), the lazy wrappers modules make when they load (64), the hook's input
 * (30) and the settings layer's (3).
 */
const BUDGET = 215;

const COUNTER = `let built = 0;
(globalThis.__zod_globalConfig ??= {}).postProcessor = () => { built++; };
process.on('exit', () => { require('node:fs').writeSync(2, '\\nzod objects built: ' + built + '\\n'); });
`;

let repo: GitFixture;
let scratch: string;

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Rules\n\nRun the tests before you commit.\n');
  repo.write('packages/app/AGENTS.md', '# App rules\n\nKeep the app small.\n');
  repo.write('.agents/skills/release/SKILL.md', '---\nname: release\ndescription: How to cut a release of the app.\n---\n\n# Release\n\nTag, then publish.\n');
  repo.commitAll('rules and a skill');
  scratch = mkdtempSync(join(tmpdir(), 'groundwork-hook-schemas-'));
  writeFileSync(join(scratch, 'count.cjs'), COUNTER);
});

afterAll(() => {
  repo?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** The objects one session-start run builds, and what it printed. */
function sessionStart(): Promise<{ built: number; stdout: string }> {
  const cwd = join(repo.dir, 'packages', 'app');
  const input = { session_id: 's', transcript_path: '/tmp/transcript.jsonl', cwd, hook_event_name: 'SessionStart', source: 'startup', model: 'm', permission_mode: 'default' };
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--require', join(scratch, 'count.cjs'), BIN, 'hook', 'session-start', '--client', 'claude-code'],
      { cwd, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', GROUNDWORK_STATE_DIR: join(scratch, 'state'), GROUNDWORK_CODE_CACHE: 'off' }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const counted = /zod objects built: (\d+)/.exec(stderr);
        if (error || !counted) reject(new Error(`the hook failed or was not counted: ${error?.message ?? ''}\n${stderr}`));
        else resolve({ built: Number(counted[1]), stdout });
      },
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

describe('zod objects a session-start hook run builds', () => {
  it(`stay within ${BUDGET} when no settings layer names a provider: no provider's settings schema is built`, async () => {
    const { built, stdout } = await sessionStart();
    expect(stdout, 'the hook gave the context').toContain('release: How to cut a release of the app.');
    expect(built, "zod's post-processor hook was not called: see this file's header").toBeGreaterThan(0);
    expect(built).toBeLessThanOrEqual(BUDGET);
  }, 120_000);

  it("build the schema of a provider a settings layer names, which checks the layer's fields", async () => {
    const plain = await sessionStart();
    repo.write('.groundwork.yml', 'providers:\n  skills:\n    maxDepth: 2\n');
    repo.commitAll('skills settings');
    try {
      const named = await sessionStart();
      expect(named.stdout).toContain('release: How to cut a release of the app.');
      // The skills provider's schema with its checks, and the layer's block derived from it.
      expect(named.built).toBeGreaterThan(plain.built + 50);
    } finally {
      repo.git('rm', '--quiet', '.groundwork.yml');
      repo.commitAll('no settings');
    }
  }, 120_000);
});
