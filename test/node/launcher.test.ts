/**
 * The `groundwork` command (`dist/groundwork.cjs`) on a machine whose `node` is too old for the
 * CLI (Debian's 20 here, first on PATH): it runs the CLI on the package's own Node, else on a
 * newer `node` later on PATH, and passes the exit status through; with none it says so in one
 * line, or for `hook` in the agent's own notice, so a session still starts. And `dist/cli.js`
 * started directly by that old Node names the command.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { meetsMinimum, nodeCandidates, nodePackageName } from '../../src/cli/launcher/find-node.ts';
import { HOOK_PROTOCOLS } from '../../src/cli/hooks/protocols.ts';
import { nodeVersionProblem } from '../../src/cli/node-version.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const DIST = dirname(BUILT_CLI);
const ROOT = dirname(DIST);
const LAUNCHER = join(DIST, 'groundwork.cjs');
const OWN = nodePackageName(process.platform, process.arch);

/** A `node` on PATH too old for the CLI (Debian's is 20), if this machine has one. */
function olderNode(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (!meetsMinimum(version)) return candidate;
  }
  return undefined;
}

const older = olderNode();
let scratch: string;
let repo: GitFixture;

/** A directory holding only `node`, a link to `target`: a PATH entry with exactly that Node on it. */
function nodeDir(name: string, target: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(target, join(dir, 'node'));
  return dir;
}

/**
 * A copy of the package without its own Node: the launcher and links to the built CLI, and
 * optionally a `node_modules/<own>` whose node cannot start (a glibc build on musl looks so).
 */
function packageWithoutNode(name: string, brokenOwn = false): string {
  const root = join(scratch, name);
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', 'groundwork.cjs'), execFileSync('cat', [LAUNCHER]));
  symlinkSync(BUILT_CLI, join(root, 'dist', 'cli.js'));
  writeFileSync(join(root, 'package.json'), '{"name":"groundwork-context","version":"0.0.0"}\n');
  if (brokenOwn && OWN !== undefined) {
    const own = join(root, 'node_modules', OWN);
    mkdirSync(join(own, 'bin'), { recursive: true });
    writeFileSync(join(own, 'package.json'), JSON.stringify({ name: OWN, version: '22.23.3', bin: { node: 'bin/node' } }));
    writeFileSync(join(own, 'bin', 'node'), '#!/nonexistent/interpreter\n');
    chmodSync(join(own, 'bin', 'node'), 0o755);
  }
  return root;
}

function run(node: string, launcher: string, args: string[], pathDirs: string[], input = ''): SpawnSyncReturns<string> {
  return spawnSync(node, [launcher, ...args], { encoding: 'utf8', input, env: { PATH: pathDirs.join(delimiter), HOME: process.env['HOME'] ?? '', GROUNDWORK_CODE_CACHE: 'off' }, timeout: 60_000 });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'groundwork-launcher-'));
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Rules\n\nRun `npm test` before committing.\n');
  repo.commitAll('rules');
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  repo?.remove();
});

describe('dist/cli.js on an older Node', () => {
  it('names the groundwork command where the package has it, and says to install Node where it does not', () => {
    expect(nodeVersionProblem('20.20.2', ROOT, BUILT_CLI, existsSync)).toBe(
      `groundwork: needs Node 22.12 or newer; this is Node 20.20.2.\nRun the groundwork command instead (${LAUNCHER}, which npm links as groundwork): it starts the CLI on the package's own Node or a newer one on PATH.\n`,
    );
    expect(nodeVersionProblem('18.0.0', '/nonexistent', '/nonexistent/dist/cli.js', existsSync)).toBe(
      'groundwork: needs Node 22.12 or newer; this is Node 18.0.0.\nInstall Node 22.12 or newer (Node 24 works too), then run /nonexistent/dist/cli.js again.\n',
    );
    for (const version of ['22.12.0', '22.23.3', '23.0.0', '24.1.0']) expect(nodeVersionProblem(version, ROOT, BUILT_CLI, existsSync)).toBeUndefined();
    for (const version of ['22.11.9', '20.20.2', 'v18.0.0']) expect(meetsMinimum(version), version).toBe(false);
  });

  it.skipIf(older === undefined)(`prints it and exits 1 (${older ?? 'no older Node on this machine'})`, () => {
    const direct = spawnSync(older ?? 'node', [BUILT_CLI, '--version'], { encoding: 'utf8' });
    expect(direct).toMatchObject({ status: 1, stdout: '' });
    expect(direct.stderr).toMatch(/^groundwork: needs Node 22\.12 or newer; this is Node \d+\.\d+\.\d+\.\nRun the groundwork command instead/);
  });
});

describe.skipIf(older === undefined)(`the groundwork command with ${older ?? 'an older Node'} first on PATH`, () => {
  const old = older ?? 'node';

  it("runs the CLI on the package's own Node: --version, context and a hook", () => {
    const oldDir = dirname(old);
    expect(nodeCandidates({ packageRoot: ROOT, pathEnv: oldDir, current: old, platform: process.platform, arch: process.arch })[0]).toMatchObject({ from: 'package', version: expect.stringMatching(/^22\./) });
    expect(run(old, LAUNCHER, ['--version'], [oldDir])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^groundwork \d+\.\d+\.\d+\n$/) });
    const context = run(old, LAUNCHER, ['context', '--repo', repo.dir], [oldDir]);
    expect(context.status, context.stderr).toBe(0);
    expect(context.stdout).toContain('Run `npm test` before committing.');
    const hook = run(old, LAUNCHER, ['hook', 'session-start', '--client', 'codex'], [oldDir], JSON.stringify({ session_id: 's', transcript_path: null, cwd: repo.dir, hook_event_name: 'SessionStart', model: 'm', permission_mode: 'default', source: 'startup' }));
    expect(hook.status, hook.stderr).toBe(0);
    const output = HOOK_PROTOCOLS.codex.events['session-start']?.output().parse(JSON.parse(hook.stdout)) as { hookSpecificOutput: { additionalContext: string } };
    // Codex loads the root AGENTS.md itself: the hook names it by path and blob rather than repeat it.
    expect(output.hookSpecificOutput.additionalContext).toMatch(/Codex loads these rule files itself at start, so they are not repeated here: AGENTS\.md \(blob [0-9a-f]{12}\)\./);
  });

  it('passes the exit status through', () => {
    expect(run(old, LAUNCHER, ['check', 'merge'], [dirname(old)])).toMatchObject({ status: 2, stderr: expect.stringContaining('unknown action "merge"') });
    expect(run(old, LAUNCHER, ['context', '--repo', join(scratch, 'nowhere')], [dirname(old)])).toMatchObject({ status: 1 });
  });

  it('runs on a newer node later on PATH when the package has no Node of its own, and past one that cannot start', () => {
    const newer = nodeDir('newer', process.execPath);
    for (const [name, broken] of [['no-own-node', false], ['broken-own-node', true]] as const) {
      const launcher = join(packageWithoutNode(name, broken), 'dist', 'groundwork.cjs');
      const ran = run(old, launcher, ['--version'], [dirname(old), newer]);
      expect(ran, name).toMatchObject({ status: 0, stdout: expect.stringMatching(/^groundwork \d+\.\d+\.\d+\n$/) });
    }
  });

  it('with no Node that can run it, says so in one line, and a hook gives the agent its notice instead of failing', () => {
    const launcher = join(packageWithoutNode('nothing'), 'dist', 'groundwork.cjs');
    const plain = run(old, launcher, ['--version'], [dirname(old)]);
    expect(plain).toMatchObject({ status: 1, stdout: '' });
    expect(plain.stderr).toMatch(/^groundwork: needs Node 22\.12 or newer and found none: this is Node \d+\.\d+\.\d+, the package's own Node \(node-[a-z0-9-]+\) is not installed, and no newer node is on PATH\. Install Node 22\.12 or newer \(or reinstall groundwork-context with optional dependencies\)\.\n$/);
    for (const client of ['claude-code', 'codex', 'gemini-cli'] as const) {
      const hook = run(old, launcher, ['hook', 'session-start', `--client=${client}`], [dirname(old)], '{}');
      expect(hook.status, client).toBe(0);
      expect(HOOK_PROTOCOLS[client].events['session-start']?.output().parse(JSON.parse(hook.stdout))).toEqual({ systemMessage: expect.stringMatching(/^groundwork: needs Node 22\.12 or newer and found none/) });
    }
    const copilot = run(old, launcher, ['hook', 'session-start', '--client', 'copilot'], [dirname(old)], '{}');
    expect(copilot).toMatchObject({ status: 2, stdout: '', stderr: expect.stringMatching(/^groundwork: needs Node 22\.12 or newer and found none/) });
  });
});

describe('the groundwork command on a Node new enough', () => {
  it('runs the CLI in its own process', () => {
    expect(run(process.execPath, LAUNCHER, ['--version'], [])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^groundwork \d+\.\d+\.\d+\n$/) });
  });

  it('loads none of the built-ins only an older Node needs (child_process, which brings net and dgram)', () => {
    // What Node loaded by the time the process exits, written by a preload: counted, not timed (issue 56).
    const preload = join(scratch, 'loaded.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList)));\n");
    const loaded = (args: string[]): string[] => {
      const child = spawnSync(process.execPath, ['--require', preload, ...args], { encoding: 'utf8' });
      expect(child.status, child.stderr).toBe(0);
      return z.array(z.string()).parse(JSON.parse(child.stderr.slice(child.stderr.lastIndexOf('["'))));
    };
    const floor = new Set(loaded(['-e', '0']));
    const launcher = loaded([LAUNCHER, '--version']).filter((name) => !floor.has(name) && name.startsWith('NativeModule '));
    expect(launcher).not.toContain('NativeModule child_process');
    expect(launcher).not.toContain('NativeModule dgram');
  });

  it('runs a command without starting the ES module loader (dist/cli.cjs), and from dist/cli.js alone when that is all a copy has', () => {
    const preload = join(scratch, 'loaded-esm.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList)));\n");
    const loaded = (launcher: string, args: string[]): { stdout: string; modules: string[] } => {
      const child = spawnSync(process.execPath, ['--require', preload, launcher, ...args], { cwd: repo.dir, encoding: 'utf8', env: { ...process.env, GROUNDWORK_CODE_CACHE: 'off' } });
      expect(child.status, child.stderr).toBe(0);
      return { stdout: child.stdout, modules: z.array(z.string()).parse(JSON.parse(child.stderr.slice(child.stderr.lastIndexOf('["')))) };
    };
    const esModules = (modules: string[]) => modules.filter((name) => name === 'NativeModule internal/modules/esm/module_job');
    const script = loaded(LAUNCHER, ['context', '--json']);
    expect(esModules(script.modules)).toEqual([]);
    // The repository's few small files are read with callback fs: fs.promises brings eight more of Node's modules.
    expect(script.modules).not.toContain('NativeModule internal/fs/promises');
    // A copy of the package whose dist has cli.js and no cli.cjs: the ES module runs the same command.
    const copy = packageWithoutNode('esm-only');
    const esm = loaded(join(copy, 'dist', 'groundwork.cjs'), ['context', '--json']);
    expect(esModules(esm.modules)).toEqual(['NativeModule internal/modules/esm/module_job']);
    const strip = (text: string) => text.replace(/"durationMs": \d+/g, '');
    expect(strip(esm.stdout)).toBe(strip(script.stdout));
  });
});
