/**
 * @module bench/agent-waits
 * Where an agent waits on the CLI (issue 56 goals 1 and 2), each figure beside its reference,
 * measured in one run, interleaved (one of each per round, medians of the rounds):
 * - `groundwork context --json` (the package's bin, `dist/groundwork.cjs`, as npm links it)
 *   against `node -e 0` on a one-file repository (goal <= 2.5x) and on workers-sdk (goal <= 3x);
 * - the session-start hook as the agents' hook files run it (`groundwork hook session-start
 *   --client claude-code`, integrations/claude-code), `startup` and `compact`, with `cwd`
 *   `packages/wrangler` of workers-sdk: against `node -e 0` (goal <= 2.5x) and against `context`
 *   run in that directory (goal <= 1.2x); and `startup` as a user's steady state meets it: a new
 *   session each run, in a state directory holding 200 earlier sessions' records (the hooks keep at
 *   most 250, pruned to the newest 200, so 49 of 50 new sessions find 200-249; the bench's runs
 *   stay under 250);
 * - the local MCP server (`groundwork mcp`) already running there: `assemble_context` against the
 *   CLI's whole process on the same input (goal <= 0.1x), and the server's CPU per `tools/list`
 *   (goal <= 1 ms), read from /proc, so the client's own time is not in it.
 *
 * workers-sdk is the snapshot the search tool's `fetch` brings (github:cloudflare/workers-sdk), or
 * any clone named by GROUNDWORK_BENCH_WORKERS_SDK; the bench checks out `packages/wrangler` alone
 * from it into a temporary clone (objects hard-linked), since a session starts in a work tree.
 * Without one, those lines say they were skipped.
 *
 * With GROUNDWORK_BENCH_BEFORE=<another build's dist/groundwork.cjs> (a checkout of main, say),
 * every CLI command also runs on that build in the same rounds, and each line gives its figure
 * too: before and after, side by side on the same machine at the same moment.
 *
 * With GROUNDWORK_BENCH_CPU_PROF=<dir>, each command also runs once under `node --cpu-prof` into
 * that directory and the line names where its CPU went (bench/cpu-profile-summary).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { summariseCpuProfile } from './cpu-profile-summary.ts';

const ROUNDS = Number(process.env['WAITS_RUNS'] ?? 7);
const MCP_CALLS = 15;
const TOOLS_LIST_CALLS = 200;
const BIN = fileURLToPath(new URL('../dist/groundwork.cjs', import.meta.url));
const WORKERS_SDK = process.env['GROUNDWORK_BENCH_WORKERS_SDK'] ?? '/work/.mirror/cloudflare+workers-sdk/repo';
const PROFILES = process.env['GROUNDWORK_BENCH_CPU_PROF'];
const BEFORE = process.env['GROUNDWORK_BENCH_BEFORE'];
/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ; 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

interface Timing {
  wall: number;
  cpu: number;
}

interface Command {
  name: string;
  args: string[];
  cwd?: string;
  /** Standard input: the same each run, or made for each run (a new session's hook input). */
  input?: string | (() => string);
  /** Over the bench's environment for this command alone. */
  env?: Record<string, string>;
}

export async function benchAgentWaits(): Promise<string[]> {
  if (!existsSync(BIN)) return [`skipped: ${BIN} is missing; run \`npm run build\``];
  const state = mkdtempSync(join(tmpdir(), 'groundwork-bench-state-'));
  // Code caches of this run's own (cli/code-cache): a cache is written once, by a command's first
  // successful run, and holds what that run compiled. Left in the user's directory, the build
  // before kept whatever cache an earlier run made while this build's were made by the bench's
  // first round, one repository or another: the two sides compared different caches.
  const codeCache = mkdtempSync(join(tmpdir(), 'groundwork-bench-code-cache-'));
  const oneFile = oneFileRepository();
  const sdk = existsSync(WORKERS_SDK) ? wranglerCheckout(WORKERS_SDK) : undefined;
  try {
    const env = { GROUNDWORK_STATE_DIR: state, GROUNDWORK_CODE_CACHE: codeCache };
    const node: Command = { name: 'node -e 0', args: ['-e', '0'] };
    const small: Command = { name: 'context one-file', args: [BIN, 'context', '--json'], cwd: oneFile };
    const commands = [node, small];
    let cases: { full: Command; inWrangler: Command; startup: Command; compact: Command; steady: Command } | undefined;
    if (sdk) {
      const wrangler = join(sdk, 'packages', 'wrangler');
      const hook = (source: string): Command => ({ name: `hook ${source}`, args: [BIN, 'hook', 'session-start', '--client', 'claude-code'], cwd: wrangler, input: JSON.stringify(sessionStart(wrangler, source)) });
      let sessions = 0;
      const steady: Command = { ...hook('startup'), name: 'hook startup, new session, 200 records', input: () => JSON.stringify(sessionStart(wrangler, 'startup', `bench-new-${++sessions}`)), env: { GROUNDWORK_STATE_DIR: earlierSessions(state) } };
      cases = { full: { name: 'context workers-sdk', args: [BIN, 'context', '--json'], cwd: sdk }, inWrangler: { name: 'context packages/wrangler', args: [BIN, 'context', '--json'], cwd: wrangler }, startup: hook('startup'), compact: hook('compact'), steady };
      commands.push(cases.full, cases.inWrangler, cases.startup, cases.compact, cases.steady);
    }
    const before = new Map<Command, Command>();
    if (BEFORE) for (const command of commands.slice(1)) before.set(command, { ...command, name: `${command.name} (before)`, args: command.args.map((arg) => (arg === BIN ? BEFORE : arg)) });
    // Each build's caches made on workers-sdk, where the figures are: a user's first run there.
    if (cases) for (const command of [cases.inWrangler, cases.startup]) for (const side of [command, before.get(command)]) if (side) run(side, env);
    const times = interleaved([...commands, ...before.values()], env);
    const wall = (command: Command) => median((times.get(command) ?? []).map((timing) => timing.wall));
    const cpu = (command: Command) => median((times.get(command) ?? []).map((timing) => timing.cpu));
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    // A command's wall and CPU time, each beside its reference's, the same for the build before.
    const against = (command: Command, reference: Command, goal: string, as = command): string =>
      `${wall(as).toFixed(0)} ms wall, ${x(wall(as), wall(reference))}; ${cpu(as).toFixed(0)} ms CPU, ${x(cpu(as), cpu(reference))} (goal <= ${goal})`;
    const figure = (command: Command, reference: Command, goal: string): string => {
      const old = before.get(command);
      const oldReference = before.get(reference) ?? reference;
      return `${against(command, reference, goal)}${old ? ` [before: ${against(old, oldReference, goal)}]` : ''}`;
    };
    const floor = `node -e 0 ${wall(node).toFixed(0)} ms wall, ${cpu(node).toFixed(0)} ms CPU`;
    const lines = [`goal 1: context --json on a one-file repository against node -e 0: ${figure(small, node, '2.5x')}; ${floor}${profiled(small, env)}`];
    if (!sdk || !cases) {
      lines.push(`goals 1 and 2 on workers-sdk: skipped: no repository at ${WORKERS_SDK} (fetch github:cloudflare/workers-sdk with the search tool, or set GROUNDWORK_BENCH_WORKERS_SDK to a clone)`);
      return lines;
    }
    const { full, inWrangler, startup, compact, steady } = cases;
    lines.push(`goal 1: context --json on workers-sdk against node -e 0: ${figure(full, node, '3x')}${profiled(full, env)}`);
    for (const hook of [startup, compact]) {
      lines.push(`goal 1: ${hook.name} (groundwork hook session-start --client claude-code, cwd packages/wrangler of workers-sdk) against node -e 0: ${figure(hook, node, '2.5x')}${profiled(hook, env)}`);
      lines.push(`goal 1: ${hook.name} against context --json in packages/wrangler: ${figure(hook, inWrangler, '1.2x')}`);
    }
    lines.push(`goal 1: hook startup of a new session with 200 earlier sessions' records kept (a user's steady state) against node -e 0: ${figure(steady, node, '2.5x')}`);
    lines.push(...(await mcpLines(BIN, join(sdk, 'packages', 'wrangler'), wall(inWrangler), cpu(inWrangler), env)));
    const oldInWrangler = before.get(inWrangler);
    if (BEFORE && oldInWrangler) lines.push(...(await mcpLines(BEFORE, join(sdk, 'packages', 'wrangler'), wall(oldInWrangler), cpu(oldInWrangler), env)).map((line) => `${line} [before]`));
    return lines;
  } finally {
    rmSync(state, { recursive: true, force: true });
    rmSync(codeCache, { recursive: true, force: true });
    rmSync(oneFile, { recursive: true, force: true });
    if (sdk) rmSync(sdk, { recursive: true, force: true });
  }
}

/**
 * Each command once per round after one untimed round (page cache, compile caches), the order
 * reversed every other round: what runs just after another (its page cache, the machine's
 * frequency) is then each command's as often, not always the same neighbour's.
 */
function interleaved(commands: Command[], env: Record<string, string>): Map<Command, Timing[]> {
  const times = new Map<Command, Timing[]>(commands.map((command) => [command, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const command of round % 2 === 0 ? commands : [...commands].reverse()) {
      const timing = run(command, env);
      if (round > 0) times.get(command)?.push(timing);
    }
  }
  return times;
}

/** The local MCP server started in `cwd`: assemble_context warm against the CLI there, and tools/list CPU. */
async function mcpLines(bin: string, cwd: string, cliMs: number, cliCpuMs: number, env: Record<string, string>): Promise<string[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], cwd, env: { ...inherited(), ...env }, stderr: 'pipe' });
  const client = new Client({ name: 'groundwork-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const pid = transport.pid;
    if (pid === null) throw new Error('bench: the MCP server has no pid');
    const request = { request: 'What are the rules for changing wrangler?' };
    const first = performance.now();
    await assemble(client, request);
    const firstMs = performance.now() - first;
    const calls: number[] = [];
    const cpuBefore = cpuMsOf(pid);
    for (let i = 0; i < MCP_CALLS; i++) {
      const started = performance.now();
      await assemble(client, request);
      calls.push(performance.now() - started);
    }
    const warm = median(calls);
    const cpuPerCall = (cpuMsOf(pid) - cpuBefore) / MCP_CALLS;
    await client.listTools();
    const before = cpuMsOf(pid);
    // The SDK's client compiles every listed tool's output schema (Ajv) each time it lists: the
    // agent's own time, which the server's schemas size (docs/benchmarks, 2026-12-07 10:45).
    const listings: number[] = [];
    for (let i = 0; i < TOOLS_LIST_CALLS; i++) {
      const started = performance.now();
      await client.listTools();
      listings.push(performance.now() - started);
    }
    const perList = (cpuMsOf(pid) - before) / TOOLS_LIST_CALLS;
    return [
      `goal 2: local MCP server assemble_context on workers-sdk (cwd packages/wrangler, running) ${warm.toFixed(1)} ms warm (median of ${MCP_CALLS}; its first call ${firstMs.toFixed(0)} ms), the CLI's whole process on the same input ${cliMs.toFixed(0)} ms wall: ${(warm / cliMs).toFixed(3)}x (goal <= 0.1x); the server's CPU ${cpuPerCall.toFixed(1)} ms a call, the CLI's ${cliCpuMs.toFixed(0)} ms: ${(cpuPerCall / cliCpuMs).toFixed(3)}x`,
      `goal 2: local MCP server tools/list ${perList.toFixed(2)} ms of the server's CPU per call (${TOOLS_LIST_CALLS} calls, from /proc; goal <= 1 ms); the SDK client's listTools ${median(listings).toFixed(1)} ms (median, wall; it compiles each tool's output schema as it lists)`,
    ];
  } finally {
    await client.close();
  }
}

async function assemble(client: Client, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name: 'assemble_context', arguments: args });
  if (result.isError) throw new Error(`bench: assemble_context failed: ${JSON.stringify(result.content).slice(0, 300)}`);
}

/** CPU (user + system) the process has used so far, in ms; Linux's /proc. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Claude Code's documented SessionStart input (src/cli/hooks/claude-code). */
function sessionStart(cwd: string, source: string, session = `bench-${source}`): Record<string, unknown> {
  return { session_id: session, transcript_path: join(tmpdir(), 'bench-transcript.jsonl'), cwd, hook_event_name: 'SessionStart', source, model: 'bench', permission_mode: 'default' };
}

/** With GROUNDWORK_BENCH_CPU_PROF: one more run under --cpu-prof, and where its CPU went. */
function profiled(command: Command, env: Record<string, string>): string {
  if (!PROFILES) return '';
  mkdirSync(PROFILES, { recursive: true });
  const name = `${command.name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`;
  run({ ...command, args: ['--cpu-prof', '--cpu-prof-dir', PROFILES, '--cpu-prof-name', name, ...command.args] }, env);
  return `; profile ${join(PROFILES, name)}: ${summariseCpuProfile(JSON.parse(readFileSync(join(PROFILES, name), 'utf8')))}`;
}

/**
 * One whole process: its wall time and the CPU it and the processes it waited for (git) used, in
 * ms, from bash's `times` around it (getrusage of its children). On a shared machine the wall
 * time carries every other process's load; the CPU is what the command itself costs.
 * A failure is a failure, not a number.
 */
function run(command: Command, env: Record<string, string>): Timing {
  const started = performance.now();
  const input = typeof command.input === 'function' ? command.input() : (command.input ?? '');
  // --norc --noprofile: bash reads ~/.bashrc when its stdin is a network connection, as a remote
  // shell daemon's would be ("Invoked by remote shell daemon", gnu.org/software/bash/manual/
  // html_node/Bash-Startup-Files.html), and a child's piped stdin is a socket (`stat -L -c %F
  // /dev/stdin` in a child of Node 22.23.3 prints `socket`; bash 5.2.15 read ~/.bashrc there);
  // a user's rc file (pyenv's init on this machine since 2026-12-07, some 120 ms of CPU in
  // processes of its own) then counted as the command's, since `times` adds up every child.
  const child = spawnSync('bash', ['--norc', '--noprofile', '-c', '"$@"; status=$?; times >&2; exit $status', 'bench', process.execPath, ...command.args], { cwd: command.cwd, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, env: { ...inherited(), ...env, ...command.env } });
  const wall = performance.now() - started;
  const stderr = child.stderr.toString('utf8');
  if (child.status !== 0) throw new Error(`bench: ${command.name} exited ${child.status}: ${stderr.slice(0, 400)}`);
  // `times` prints the shell's user and system time, then its children's: `0m0.082s 0m0.038s`.
  const children = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(stderr);
  if (!children) throw new Error(`bench: no CPU times after ${command.name}: ${stderr.slice(-200)}`);
  const [, um = '0', us = '0', sm = '0', ss = '0'] = children;
  return { wall, cpu: (Number(um) * 60 + Number(us) + Number(sm) * 60 + Number(ss)) * 1000 };
}

/** A state directory beside `state` holding 200 records of earlier sessions, oldest first, as the hooks write them. */
function earlierSessions(state: string): string {
  const dir = join(state, 'steady');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let i = 0; i < 200; i++) {
    const path = join(dir, `${i.toString(16).padStart(40, '0')}.json`);
    writeFileSync(path, JSON.stringify({ root: '/elsewhere', commit: 'a'.repeat(40), told: 'a'.repeat(40), sources: [] }), { mode: 0o600 });
    utimesSync(path, 1_000_000 + i, 1_000_000 + i);
  }
  return dir;
}

function inherited(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** A git repository of one commit holding one AGENTS.md: what every run pays but the repository. */
function oneFileRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'groundwork-bench-one-file-'));
  writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n\nRun the tests before you commit.\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', 'AGENTS.md');
  git(dir, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'one file');
  return dir;
}

/** A clone of `source` (objects hard-linked) with only `packages/wrangler` and the root's files checked out. */
function wranglerCheckout(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'groundwork-bench-workers-sdk-'));
  git(tmpdir(), 'clone', '-q', '--local', '--no-checkout', source, dir);
  git(dir, 'sparse-checkout', 'set', '--cone', 'packages/wrangler');
  git(dir, 'checkout', '-q');
  return dir;
}

function git(cwd: string, ...args: string[]): void {
  const child = spawnSync('git', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  if (child.status !== 0) throw new Error(`git ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
