/**
 * `wrangler dev --local` as a child process the bench owns: free ports, its own `--persist-to`
 * temp directory, `--var` bindings, and a stop that kills the whole process group (wrangler runs
 * workerd as a child of its own) and removes the directory, also when the bench dies early.
 *
 * Groundwork runs as two Workers (wrangler.toml and wrangler.auth.toml, the authorization Worker
 * its AUTH_SERVER binding names), started together as `npm run dev` does (`wrangler dev -c … -c …`,
 * one workerd). wrangler 4.164.0 applies `--var` to the first configuration only (its multi-worker
 * start passes the others' configurations alone), so the authorization Worker gets a configuration
 * of its own in the state directory: wrangler.auth.toml with the same vars, and its upload built
 * there from this checkout's sources.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker, ENTRY } from '../scripts/worker-build.ts';

/**
 * wrangler's local Workers Observability (on unless X_LOCAL_OBSERVABILITY=false, wrangler 4.164.0):
 * every Worker streams its invocations' traces to a collector Worker whose Durable Object writes
 * them to SQLite, on workerd's one thread. A deployed Worker's traces are not written on its
 * thread. Off for every Worker the bench starts (Groundwork's, the build before, the floors) unless
 * GROUNDWORK_BENCH_LOCAL_OBSERVABILITY=true: on, a pull request's first turn spent 20 to 30 ms more
 * of workerd's CPU and was ready 7 ms later (docs/benchmarks, 2026-12-07 21:45).
 */
const LOCAL_OBSERVABILITY = process.env['GROUNDWORK_BENCH_LOCAL_OBSERVABILITY'] === 'true' ? 'true' : 'false';

/** Bundling and starting workerd take a few seconds; more than this means it will not come up. */
const READY_TIMEOUT_MS = 45_000;
const STOP_TIMEOUT_MS = 5_000;
/** Enough of wrangler's output to explain a failed start. */
const OUTPUT_TAIL_CHARS = 4_000;

export interface WranglerDev {
  origin: string;
  /** wrangler's inspector (the DevTools protocol), which bench/intake-profile attaches V8's profiler to. */
  inspectorPort: number;
  /** CPU time used so far by wrangler and workerd (every process of its group), in ms; Linux only. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** `count` ports free now, each a different one: all are held open at once while the system picks them. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

/**
 * A start that failed because a port was taken: a port free when freePorts chose it may be
 * another process's by the time wrangler binds it (seen once in eight bench runs: "Address
 * already in use"), and two ports asked for one after the other could even be the same one.
 */
export class PortTaken extends Error {}

/** Starts tried before a taken port is the caller's failure. */
const START_ATTEMPTS = 3;

export interface WranglerDevOptions {
  /** Another Worker's wrangler.toml (a bench reference); Groundwork's own by default. */
  config?: string;
  /** More `wrangler dev` flags. */
  args?: string[];
  /**
   * Runs this build of Groundwork instead of wrangler.toml's: another entry (a bench variant such
   * as bench/workers/groundwork-held) and/or unminified, for a profile with readable names.
   */
  build?: { entry?: string; minify?: boolean };
  /**
   * Another checkout of Groundwork (built, with its node_modules) to run instead of this one: its
   * wrangler.toml, its upload and its wrangler, so a bench can put the build before a change beside
   * this one in the same run. Not with `build`, which builds this checkout's sources.
   */
  root?: string;
}

/** Starts the Worker in this directory and resolves once `GET /health` answers 200; on other ports again when one was taken. */
export async function startWranglerDev(vars: Record<string, string>, options: WranglerDevOptions = {}): Promise<WranglerDev> {
  if (options.root && options.build) throw new Error('startWranglerDev: `root` runs another checkout as it is built; `build` builds this one');
  for (let attempt = 1; ; attempt++) {
    const [port = 0, inspectorPort = 0] = await freePorts(2);
    try {
      return await startOn(port, inspectorPort, vars, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

export async function startOn(port: number, inspectorPort: number, vars: Record<string, string>, options: WranglerDevOptions): Promise<WranglerDev> {
  const root = options.root ?? fileURLToPath(new URL('..', import.meta.url));
  const persistTo = mkdtempSync(join(tmpdir(), 'groundwork-bench-wrangler-'));
  const args = ['dev', '--local', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort)];
  args.push('--persist-to', persistTo, '--log-level', 'error', '--show-interactive-dev-session=false');
  // Named, not found: wrangler looks for the configuration from a script's directory, and a build
  // of the bench's own lives in the state directory.
  if (options.config || options.build || existsSync(join(root, 'wrangler.auth.toml'))) args.push('--config', options.config ?? join(root, 'wrangler.toml'));
  // The authorization Worker beside Groundwork's own configuration (not beside a bench reference's).
  if (!options.config && existsSync(join(root, 'wrangler.auth.toml'))) args.push('--config', await authWorkerConfig(root, persistTo, vars, options.root === undefined));
  // Its own upload in the state directory: wrangler takes the chunks from beside the entry it runs.
  if (options.build) args.push(join((await buildWorker({ ...options.build, outdir: join(persistTo, 'upload') })).dir, ENTRY));
  args.push(...(options.args ?? []));
  // wrangler splits `--var` at the first `:` only, so values may hold `:`, `=` and newlines.
  for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);

  // The bench's own Node runs wrangler: the one on PATH may be older than wrangler accepts.
  const child = spawn(process.execPath, [join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), ...args], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', X_LOCAL_OBSERVABILITY: LOCAL_OBSERVABILITY },
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  // The group id is the child's pid (detached); signalling it reaches workerd too.
  const signal = (name: NodeJS.Signals) => {
    if (running && child.pid !== undefined) {
      try {
        process.kill(-child.pid, name);
      } catch {
        // Already gone.
      }
    }
  };
  // A bench that dies without reaching stop() still leaves no workerd and no state behind.
  const killOnExit = () => {
    signal('SIGKILL');
    rmSync(persistTo, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const stop = async () => {
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
    process.removeListener('exit', killOnExit);
    rmSync(persistTo, { recursive: true, force: true });
  };

  const origin = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(origin, () => running);
  } catch (error) {
    await stop();
    const message = `${error instanceof Error ? error.message : String(error)}\n--- wrangler output ---\n${output}`;
    throw /address already in use/i.test(output) ? new PortTaken(message) : new Error(message);
  }
  return { origin, inspectorPort, cpuMs: () => (child.pid === undefined ? NaN : groupCpuMs(child.pid)), stop };
}

/**
 * wrangler.auth.toml in `dir` with `vars` and its upload's absolute path: this checkout's sources
 * built there (`build`), or another checkout's built dist/auth-worker. No `[build]`: it is built.
 */
async function authWorkerConfig(root: string, dir: string, vars: Record<string, string>, build: boolean): Promise<string> {
  const upload = build ? (await buildWorker({ entry: 'src/auth-worker.ts', outdir: join(dir, 'auth-upload') })).dir : join(root, 'dist', 'auth-worker');
  const toml = readFileSync(join(root, 'wrangler.auth.toml'), 'utf8')
    .replace(/^main = .*$/m, `main = ${JSON.stringify(join(upload, ENTRY))}`)
    .replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '');
  // TOML's basic strings take JSON's escapes, so a PEM key's newlines survive.
  const lines = Object.entries(vars).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  const configDir = join(dir, 'auth-config');
  mkdirSync(configDir, { recursive: true });
  const path = join(configDir, 'wrangler.auth.toml');
  writeFileSync(path, `${toml}\n[vars]\n${lines.join('\n')}\n`);
  return path;
}

async function untilHealthy(origin: string, running: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!running()) throw new Error('wrangler dev exited before it answered');
    try {
      const response = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer ${origin}/health within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * On-CPU time of every thread of every process in group `pgid`, from /proc (schedstat counts
 * nanoseconds on a CPU, so it does not grow while a loaded machine keeps the process waiting).
 */
function groupCpuMs(pgid: number): number {
  let ns = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The fifth field of /proc/<pid>/stat, after the parenthesised command name, is the group.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      if (Number(fields[2]) !== pgid) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The process or thread ended while being read.
    }
  }
  return ns / 1e6;
}
