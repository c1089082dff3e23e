/**
 * cli/command-flags: the commands that live a fraction of a second run with V8 settings for that
 * (no TurboFan for a loop that ends in a few ms, a young generation that does not grow), set in
 * the process before the command's bundle is compiled, through either entry of the CLI; the MCP
 * server, which runs for hours, keeps V8's defaults.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_BUNDLES, type CommandBundle } from '../../src/cli/command-bundles.ts';
import { BUILTINS_BEFORE_FLAGS, COMMAND_V8_FLAGS, commandFlags, SESSION_V8_FLAGS, SHORT_LIVED_V8_FLAGS } from '../../src/cli/command-flags.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const DIST = dirname(BUILT_CLI);
let scratch: string;
let recorder: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'groundwork-command-flags-'));
  // Records, in order, each V8 flag string the process sets and each script it compiles.
  recorder = join(scratch, 'record.cjs');
  writeFileSync(
    recorder,
    `const v8 = require('node:v8'); const vm = require('node:vm'); const fs = require('node:fs');
     const log = (line) => fs.appendFileSync(process.env.RECORD, line + '\\n');
     const set = v8.setFlagsFromString; v8.setFlagsFromString = (flags) => { log('flags ' + flags); set(flags); };
     const Script = vm.Script; vm.Script = class extends Script { constructor(source, options) { log('script ' + require('node:path').basename(options?.filename ?? '?')); super(source, options); } };`,
  );
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What `groundwork <command> --help` set and compiled, in order, started through `entry`. */
function recorded(entry: string, command: CommandBundle): string[] {
  const record = join(scratch, `${command}-${entry.replace(/\W/g, '_')}.log`);
  writeFileSync(record, '');
  const child = spawnSync(process.execPath, ['-r', recorder, join(DIST, entry), command, '--help'], { encoding: 'utf8', input: '', env: { ...process.env, RECORD: record, GROUNDWORK_CODE_CACHE: 'off' }, timeout: 60_000 });
  expect(child.status, child.stderr).toBe(0);
  return readFileSync(record, 'utf8').trim().split('\n').filter(Boolean);
}

describe('which commands get which flags', () => {
  it('gives every command but the MCP server the short-lived settings, on the V8 they were measured on', () => {
    const expected: { [K in CommandBundle]: readonly string[] } = { context: SESSION_V8_FLAGS, hook: SESSION_V8_FLAGS, rules: SHORT_LIVED_V8_FLAGS, check: SHORT_LIVED_V8_FLAGS, freshness: SHORT_LIVED_V8_FLAGS, mcp: [] };
    for (const name of Object.keys(COMMAND_BUNDLES) as CommandBundle[]) expect(commandFlags(name, '12.4.254.21-node.33')).toEqual(expected[name]);
    expect(SESSION_V8_FLAGS).toEqual([...SHORT_LIVED_V8_FLAGS, '--no-sparkplug']);
    expect(COMMAND_V8_FLAGS.mcp).toEqual([]);
  });

  it('loads built-ins first only for the commands that set flags', () => {
    expect(BUILTINS_BEFORE_FLAGS.mcp).toEqual([]);
    expect(BUILTINS_BEFORE_FLAGS.hook).toContain('stdin');
  });

  it('sets none on another V8, whose flags may differ', () => {
    expect(commandFlags('hook', '13.6.233.10-node.20')).toEqual([]);
    expect(commandFlags('context', '11.3.244.8')).toEqual([]);
  });
});

describe.skipIf(commandFlags('hook').length === 0)('the bin on this Node', () => {
  for (const entry of ['groundwork.cjs', 'cli.js']) {
    it(`sets the hook's and context's flags before their bundle is compiled (${entry})`, () => {
      for (const command of ['hook', 'context'] as const) {
        const lines = recorded(entry, command);
        expect(lines).toContain(`flags ${SESSION_V8_FLAGS.join(' ')}`);
        expect(lines.indexOf(`flags ${SESSION_V8_FLAGS.join(' ')}`)).toBeLessThan(lines.indexOf(`script ${command}.cjs`));
      }
    });

    it(`leaves the MCP server with V8's defaults (${entry})`, () => {
      const lines = recorded(entry, 'mcp');
      expect(lines).toContain('script mcp.cjs');
      expect(lines.filter((line) => line.startsWith('flags'))).toEqual([]);
    });
  }

  /**
   * A child with TurboFan synchronous (so whether a function was optimised does not depend on
   * a background thread's timing) runs the hook's pattern: a hash loop over ~17,000 characters
   * in 8 calls (context/section's boundaries) and 200,000 objects kept; then the same hash 2,000
   * times more, as a long run would.
   */
  function probe(flags: readonly string[]): { shortRunOptimised: boolean; longRunOptimised: boolean; newSpace: number } {
    const program = `
      const v8 = require('node:v8');
      ${flags.length > 0 ? `v8.setFlagsFromString(${JSON.stringify(flags.join(' '))});` : ''}
      function hash(text) { let a = 0x811c9dc5; for (let i = 0; i < text.length; i++) a = Math.imul(a ^ text.charCodeAt(i), 0x01000193); return a >>> 0; }
      const text = 'x'.repeat(2100);
      for (let i = 0; i < 8; i++) hash(text);
      const shortRunOptimised = %ActiveTierIsTurbofan(hash);
      const kept = [];
      for (let i = 0; i < 200000; i++) kept.push({ i, s: 'k' + i });
      const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
      for (let i = 0; i < 2000; i++) hash(text);
      process.stdout.write(JSON.stringify({ shortRunOptimised, longRunOptimised: %ActiveTierIsTurbofan(hash), newSpace, kept: kept.length }));`;
    const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', '--no-concurrent-osr', '-e', program], { encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    return JSON.parse(child.stdout) as { shortRunOptimised: boolean; longRunOptimised: boolean; newSpace: number };
  }

  it('keeps a short hash loop out of TurboFan, not a long one, and the young generation at its first size', () => {
    const defaults = probe([]);
    const shortLived = probe(SHORT_LIVED_V8_FLAGS);
    expect(defaults.shortRunOptimised).toBe(true);
    expect(shortLived.shortRunOptimised).toBe(false);
    expect(shortLived.longRunOptimised).toBe(true);
    expect(shortLived.newSpace).toBeLessThan(defaults.newSpace);
    expect(shortLived.newSpace).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});

/**
 * Node compiles its own modules from the code cache in its binary only while no V8 flag has been
 * set in the process; what a command loads after its flags is compiled from source. Its
 * built-in loader says which were (`compiledWithoutCache`, read through --expose-internals at
 * exit): with the built-ins loaded first, and stdout and stderr written on their descriptors when
 * they are pipes (cli/stdio: no `net` at all, even for `context`'s warning on stderr), none but
 * the one Node loads inside fs.readFile's callback form on its first call
 * (internal/fs/read/context), which nothing can load earlier.
 */
describe.skipIf(commandFlags('hook').length === 0)("Node's own modules, from its code cache", () => {
  let repo: GitFixture;
  let usage: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\n\nRun the tests.\n');
    repo.write('.agents/skills/gone/SKILL.md', '---\nname: gone\ndescription: A skill deleted in the working tree.\n---\n\nGone.\n');
    repo.commitAll('rules');
    // A committed skill deleted in the working tree: `context` warns about it on stderr.
    rmSync(join(repo.dir, '.agents'), { recursive: true, force: true });
    usage = join(scratch, 'usage.cjs');
    writeFileSync(
      usage,
      `process.on('exit', () => {
         const { internalBinding } = require('internal/test/binding');
         const compiled = internalBinding('builtins').getCacheUsage().compiledWithoutCache;
         require('node:fs').writeFileSync(process.env.USAGE, JSON.stringify([...compiled]));
       });`,
    );
  });
  afterAll(() => repo.remove());

  const hookInput = (cwd: string): string => JSON.stringify({ session_id: 's1', transcript_path: join(cwd, 't.jsonl'), cwd, hook_event_name: 'SessionStart', source: 'startup' });
  const runs: { name: string; args: string[]; input: (cwd: string) => string }[] = [
    { name: 'context', args: ['context', '--json'], input: () => '' },
    { name: 'hook', args: ['hook', 'session-start', '--client', 'claude-code'], input: hookInput },
    { name: 'rules', args: ['rules'], input: () => '' },
    { name: 'freshness', args: ['freshness', '--since', 'HEAD'], input: () => '' },
    { name: 'check', args: ['check', '--help'], input: () => '' },
  ];

  for (const run of runs) {
    it(`compiles none of them from source for ${run.args.join(' ')}, its streams being pipes`, () => {
      const out = join(scratch, `usage-${run.name}.json`);
      const child = spawnSync(process.execPath, ['--no-warnings', '--expose-internals', '-r', usage, join(DIST, 'groundwork.cjs'), ...run.args], {
        cwd: repo.dir,
        encoding: 'utf8',
        input: run.input(repo.dir),
        env: { ...process.env, USAGE: out, GROUNDWORK_CODE_CACHE: 'off', GROUNDWORK_STATE_DIR: join(scratch, 'state') },
        timeout: 60_000,
      });
      expect(child.status, child.stderr).toBe(0);
      if (run.name === 'context') expect(child.stderr).toMatch(/^warning: /);
      const fromSource = (JSON.parse(readFileSync(out, 'utf8')) as string[]).filter((id) => id !== 'internal/test/binding' && id !== 'internal/fs/read/context');
      expect(fromSource).toEqual([]);
    });
  }
});
