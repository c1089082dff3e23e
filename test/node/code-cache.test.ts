/**
 * cli/code-cache: a command bundle run with V8's code cache taken after the run, read only from a
 * directory that is this user's alone, keyed by the bundle's text, and never in the way of the
 * command when anything about it is wrong.
 */
import { isAscii } from 'node:buffer';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCRIPT_END, SCRIPT_START, type CacheStatus } from '../../src/cli/code-cache.ts';
import { BUILT_CLI } from './cli-support.ts';
import { createGitRepo } from '../support/git-fixtures.ts';

let root: string;
let cacheDir: string;
let bundle: string;
const env = () => ({ GROUNDWORK_CODE_CACHE: cacheDir });
const CODE_CACHE = new URL('../../src/cli/code-cache.ts', import.meta.url).href;

interface Run {
  status: CacheStatus;
  value: number;
  url: string;
  joined: string;
  work: number;
  saves: string[];
}

/**
 * One run in a process of its own, as the CLI runs: in one process V8 reuses what it compiled
 * there and never reads the cache, so a test in this process could not tell a cache from none.
 */
function runCachedScript(file: string, options: { env: Record<string, string>; call?: boolean; saves?: number; flags?: string[] }): Run {
  const flags = options.flags ?? [];
  const program = `
    ${flags.length > 0 ? `(await import('node:v8')).setFlagsFromString(${JSON.stringify(flags.join(' '))});` : ''}
    const { runCachedScript } = await import(${JSON.stringify(CODE_CACHE)});
    const script = runCachedScript(${JSON.stringify(file)}, { env: ${JSON.stringify(options.env)}, flags: ${JSON.stringify(flags)} });
    const work = ${options.call ? 'script.exports.work()' : '0'};
    const saves = Array.from({ length: ${options.saves ?? 1} }, () => script.save());
    process.stdout.write(JSON.stringify({ status: script.status, value: script.exports.value(), url: script.exports.url, joined: script.exports.join('a', 'b'), work, saves }));`;
  // The deadline only turns a hang (a cache read that never returns) into a failure that says so.
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8', timeout: 120_000 });
  if (child.status !== 0) throw new Error(`the run failed${child.signal ? ` (stopped by ${child.signal}: it hung)` : ''}: ${child.stderr}`);
  return JSON.parse(child.stdout) as Run;
}
const cached = () => readdirSync(cacheDir).filter((name) => name.endsWith('.bin'));
const seen = new Set<string>();

beforeEach(() => {
  seen.clear();
  root = mkdtempSync(join(tmpdir(), 'groundwork-code-cache-'));
  cacheDir = join(root, 'cache');
  bundle = join(root, 'sample.cjs');
  writeFileSync(bundle, sampleSource(1));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A bundle whose text differs from another version's only in one digit (so V8's length check cannot tell them apart). */
function sampleSource(value: number, functions = 0): string {
  const work = Array.from({ length: functions }, (_, i) => `function f${i}(x) { let s = 0; for (let j = 0; j < x; j++) s += (j * ${i}) % 7; return s; }`);
  const body = [
    `exports.value = () => ${value};`,
    'exports.url = __importMetaUrl;',
    "exports.join = require('node:path').join;",
    ...work,
    `exports.work = () => ${functions === 0 ? '0' : work.map((_, i) => `f${i}(3)`).join(' + ')};`,
  ].join('\n');
  // As scripts/build writes a command bundle.
  return `${SCRIPT_START}\n${body}\n${SCRIPT_END}\n`;
}

describe('runCachedScript', () => {
  it('runs the bundle as CommonJS with its URL, then keeps a private cache that the next run accepts', () => {
    const first = runCachedScript(bundle, { env: env(), saves: 2 });
    expect(first).toMatchObject({ status: 'absent', value: 1, url: pathToFileURL(bundle).href, joined: join('a', 'b'), saves: ['written', 'written'] });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(cached()).toHaveLength(1);
    expect(statSync(join(cacheDir, cached()[0] ?? '')).mode & 0o777).toBe(0o600);

    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'accepted', value: 1, saves: ['kept'] });
  });

  it('makes the cache again, once, when a run compiles much besides it: a first run that took another path left the rest out', () => {
    // 2,000 functions only `work` calls: some 200 KB of bytecode a run compiles when the cache lacks them.
    writeFileSync(bundle, sampleSource(1, 2_000));
    const name = (suffix: string) => cached().filter((file) => file.endsWith(suffix));
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'absent', saves: ['written'] });
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'accepted', saves: ['kept'] });
    expect(name('-completed.bin')).toEqual([]);

    // The path that calls them: made again with them in, the first cache gone.
    expect(runCachedScript(bundle, { env: env(), call: true })).toMatchObject({ status: 'accepted', work: expect.any(Number), saves: ['written'] });
    expect(cached()).toEqual(name('-completed.bin'));
    expect(cached()).toHaveLength(1);
    // Read first from now on, with nothing to add, and never made again.
    expect(runCachedScript(bundle, { env: env(), call: true })).toMatchObject({ status: 'accepted', saves: ['kept'] });
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'accepted', saves: ['kept'] });
  });

  it('makes it again once only, though a run keeps compiling what no cache of the bundle holds', () => {
    // `work` compiles fresh functions of its own on every call (as Node's own modules are): the
    // cache can never hold them, so completing it once is all a run may do.
    const body = ['exports.value = () => 1;', 'exports.url = __importMetaUrl;', "exports.join = require('node:path').join;", 'exports.work = () => { let s = 0; for (let i = 0; i < 3000; i++) s += new Function("x", "let t = x; for (let j = 0; j < 3; j++) t += j * " + i + "; return t;")(1); return s; };'].join('\n');
    writeFileSync(bundle, `${SCRIPT_START}\n${body}\n${SCRIPT_END}\n`);
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'absent', saves: ['written'] });
    expect(runCachedScript(bundle, { env: env(), call: true })).toMatchObject({ status: 'accepted', saves: ['written'] });
    expect(cached()).toHaveLength(1);
    for (let run = 0; run < 2; run++) expect(runCachedScript(bundle, { env: env(), call: true })).toMatchObject({ status: 'accepted', saves: ['kept'] });
  });

  it('keys the cache by the text: a rebuilt bundle of the same length runs its own code', () => {
    runCachedScript(bundle, { env: env() });
    const before = cached();
    writeFileSync(bundle, sampleSource(2));
    expect(readFileSync(bundle).length).toBe(sampleSource(1).length);

    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'absent', value: 2, saves: ['written'] });
    expect(cached()).toHaveLength(2);
    expect(cached()).toEqual(expect.arrayContaining(before));
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'accepted', value: 2 });
  });

  it('keys the cache by the V8 flags the command set too: V8 refuses a cache made under other flags, so two flag sets used in turn keep a cache each', () => {
    const fast = ['--semi-space-growth-factor=1'];
    const fewer = ['--semi-space-growth-factor=1', '--no-sparkplug'];
    expect(runCachedScript(bundle, { env: env(), flags: fast }).status).toBe('absent');
    expect(runCachedScript(bundle, { env: env(), flags: fewer }).status).toBe('absent');
    expect(cached()).toHaveLength(2);
    expect(runCachedScript(bundle, { env: env(), flags: fast })).toMatchObject({ status: 'accepted', saves: ['kept'] });
    expect(runCachedScript(bundle, { env: env(), flags: fewer })).toMatchObject({ status: 'accepted', saves: ['kept'] });
    expect(runCachedScript(bundle, { env: env() }).status).toBe('absent');
  });

  it('keeps the three newest caches of a command, so two installs used in turn keep theirs', () => {
    for (const value of [1, 2, 3, 4]) {
      writeFileSync(bundle, sampleSource(value));
      runCachedScript(bundle, { env: env() });
      // Written in order, whatever the file system's clock resolution.
      const written = join(cacheDir, cached().find((name) => !seen.has(name)) ?? '');
      seen.add(basename(written));
      utimesSync(written, value * 1000, value * 1000);
    }
    expect(cached()).toHaveLength(3);
    writeFileSync(bundle, sampleSource(1));
    expect(runCachedScript(bundle, { env: env() }).status).toBe('absent');
    for (const value of [3, 4]) {
      writeFileSync(bundle, sampleSource(value));
      expect(runCachedScript(bundle, { env: env() }).status).toBe('accepted');
    }
  });

  it('holds the functions the run called, not only what loading compiled', () => {
    writeFileSync(bundle, sampleSource(1, 40));
    runCachedScript(bundle, { env: env() });
    const loadedOnly = statSync(join(cacheDir, cached()[0] ?? '')).size;
    rmSync(cacheDir, { recursive: true });

    expect(runCachedScript(bundle, { env: env(), call: true }).work).toBeGreaterThan(0);
    expect(statSync(join(cacheDir, cached()[0] ?? '')).size).toBeGreaterThan(loadedOnly);
  });

  it('refuses a file that is not a command bundle (not wrapped as scripts/build writes one)', () => {
    writeFileSync(bundle, 'exports.value = () => 1;\n');
    expect(() => runCachedScript(bundle, { env: env() })).toThrow(/is not a command bundle/);
    expect(readdirSync(root)).not.toContain('cache');
  });

  it("compiles the built bundles' text as it was read, one byte a character, with nothing joined to it (V8 would copy it whole)", () => {
    // ASCII, so the text is a one-byte string (scripts/build escapes what esbuild leaves in regular expressions).
    for (const name of readdirSync(join(dirname(BUILT_CLI), 'commands'))) expect(isAscii(readFileSync(join(dirname(BUILT_CLI), 'commands', name))), name).toBe(true);
    const recorder = join(root, 'record.cjs');
    const record = join(root, 'record.log');
    writeFileSync(
      recorder,
      `const vm = require('node:vm'); const fs = require('node:fs'); const Script = vm.Script;
       vm.Script = class extends Script { constructor(source, options) { fs.appendFileSync(${JSON.stringify(record)}, require('node:path').basename(options.filename) + ' ' + (source === fs.readFileSync(options.filename, 'latin1')) + '\\n'); super(source, options); } };`,
    );
    for (const command of ['hook', 'context']) {
      const child = spawnSync(process.execPath, ['-r', recorder, join(dirname(BUILT_CLI), 'groundwork.cjs'), command, '--help'], { encoding: 'utf8', env: { ...process.env, GROUNDWORK_CODE_CACHE: cacheDir } });
      expect(child.status, child.stderr).toBe(0);
    }
    expect(readFileSync(record, 'utf8')).toBe('hook.cjs true\ncontext.cjs true\n');
  });

  it('runs without a cache V8 rejects, and writes a good one', () => {
    runCachedScript(bundle, { env: env() });
    writeFileSync(join(cacheDir, cached()[0] ?? ''), 'not a code cache', { mode: 0o600 });

    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'rejected', value: 1, saves: ['written'] });
    expect(runCachedScript(bundle, { env: env() }).status).toBe('accepted');
  });

  it('reads nothing from, and writes nothing to, a directory or file others may write', () => {
    runCachedScript(bundle, { env: env() });
    const file = join(cacheDir, cached()[0] ?? '');

    chmodSync(file, 0o666);
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'unsafe', value: 1 });
    chmodSync(file, 0o600);

    chmodSync(cacheDir, 0o777);
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'unsafe', value: 1, saves: ['failed'] });

    // A world-writable directory (as /tmp is) is not written to either.
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(runCachedScript(bundle, { env: { GROUNDWORK_CODE_CACHE: open } })).toMatchObject({ status: 'unsafe', value: 1, saves: ['failed'] });
    expect(readdirSync(open)).toEqual([]);
  });

  it('ignores a cache that is not a regular file, without waiting on it: a FIFO, a directory, a symbolic link, a socket', async () => {
    runCachedScript(bundle, { env: env() });
    const name = cached()[0] ?? '';
    const file = join(cacheDir, name);
    const good = join(root, 'good.bin');
    renameSync(file, good);

    // A FIFO no one writes to: opening it to read would wait for a writer forever.
    expect(spawnSync('mkfifo', ['-m', '600', file]).status).toBe(0);
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'unsafe', value: 1, saves: ['written'] });
    expect(lstatSync(file).isFile()).toBe(true);

    // A link to a good cache of this very bundle is not followed.
    rmSync(file);
    symlinkSync(good, file);
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'unsafe', value: 1, saves: ['written'] });
    expect(lstatSync(file).isFile()).toBe(true);

    // A directory cannot be replaced by the new cache, so the command runs without one each time.
    rmSync(file);
    mkdirSync(file, { mode: 0o700 });
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'unsafe', value: 1, saves: ['failed'] });
    expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'unsafe', value: 1 });

    // A socket cannot be opened at all.
    rmSync(file, { recursive: true });
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(file, resolve));
    try {
      expect(lstatSync(file).isSocket()).toBe(true);
      expect(runCachedScript(bundle, { env: env() })).toMatchObject({ status: 'absent', value: 1 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('falls back to a directory of its own under TMPDIR when the home cache cannot be made', () => {
    writeFileSync(join(root, 'blocker'), '');
    const temporary = join(root, 'tmp');
    mkdirSync(temporary);
    const fallback = { XDG_CACHE_HOME: join(root, 'blocker'), TMPDIR: temporary };
    expect(runCachedScript(bundle, { env: fallback })).toMatchObject({ status: 'absent', saves: ['written'] });
    const own = join(temporary, `groundwork-code-cache-${process.getuid?.()}`);
    expect(readdirSync(own)).toHaveLength(1);
    expect(runCachedScript(bundle, { env: fallback })).toMatchObject({ status: 'accepted', saves: ['kept'] });
  });

  // Making a link someone else owns takes root (CI runs as root).
  it.runIf(process.getuid?.() === 0)('refuses a link someone else planted where its temporary directory goes', () => {
    writeFileSync(join(root, 'blocker'), '');
    const temporary = join(root, 'tmp');
    mkdirSync(temporary);
    const fallback = { XDG_CACHE_HOME: join(root, 'blocker'), TMPDIR: temporary };
    const own = join(temporary, `groundwork-code-cache-${process.getuid?.()}`);
    mkdirSync(cacheDir, { mode: 0o700 });
    symlinkSync(cacheDir, own);
    lchownSync(own, 65534, 65534);
    expect(runCachedScript(bundle, { env: fallback })).toMatchObject({ status: 'unsafe', saves: ['failed'] });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('is off when told, and under XDG_CACHE_HOME by default', () => {
    for (const off of ['off', '0']) expect(runCachedScript(bundle, { env: { GROUNDWORK_CODE_CACHE: off } })).toMatchObject({ status: 'off', value: 1, saves: ['kept'] });
    const xdg = join(root, 'xdg');
    expect(runCachedScript(bundle, { env: { XDG_CACHE_HOME: xdg } }).saves).toEqual(['written']);
    expect(readdirSync(join(xdg, 'groundwork', 'code-cache'))).toHaveLength(1);
  });

  it('fails the save, not the command, when the directory cannot be made', () => {
    writeFileSync(join(root, 'blocker'), '');
    expect(runCachedScript(bundle, { env: { GROUNDWORK_CODE_CACHE: join(root, 'blocker', 'cache') } })).toMatchObject({ status: 'absent', value: 1, saves: ['failed'] });
  });
});

describe('the built CLI', () => {
  it('keeps the cache of a command after its first successful run, and none after bad usage', async () => {
    const repo = createGitRepo();
    try {
      repo.write('AGENTS.md', '# Rules\n\nRun the tests.\n');
      repo.commitAll('one file');
      const run = (args: string[]) => promisify(execFile)(process.execPath, [BUILT_CLI, ...args], { env: { ...process.env, GROUNDWORK_CODE_CACHE: cacheDir }, encoding: 'utf8' });

      await expect(run(['context', '--no-such-option'])).rejects.toMatchObject({ code: 2 });
      expect(() => readdirSync(cacheDir)).toThrow();

      // Durations differ between runs; the rest of the turn does not.
      const turn = async () => (await run(['context', '--repo', repo.dir, '--json'])).stdout.replace(/"durationMs": \d+/g, '"durationMs": 0');
      const first = await turn();
      expect(cached()).toEqual([expect.stringMatching(/^context-[0-9a-f]{24}\.bin$/)]);
      const second = await turn();
      expect(second).toBe(first);
      expect(second).toContain('Run the tests.');
      expect(cached()).toHaveLength(1);
    } finally {
      repo.remove();
    }
  });
});
