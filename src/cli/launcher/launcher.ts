/**
 * @module cli/launcher/launcher
 * The `groundwork` command (`dist/groundwork.cjs`, the package's `bin`). npm links it to run on
 * the first `node` on PATH, which may be too old for the CLI (Debian's is 20; agents and
 * non-interactive shells get no `alias`). So it starts the CLI itself on a Node that can run it:
 * - the Node running it, when it is 22.12 or newer: the CLI is loaded in this process;
 * - else the package's own Node (its `node-<platform>-<arch>` optional dependency), then any other
 *   `node` on PATH that is new enough (cli/launcher/find-node), as a child with the same stdio,
 *   arguments, environment and exit status;
 * - else one line on stderr and exit 1, or for `groundwork hook` the notice of the agent running
 *   it (a JSON `systemMessage` and exit 0; Copilot: stderr and exit 2), so a session still starts.
 * CommonJS, Node built-ins only, and syntax an old Node parses (esbuild targets Node 14 here).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { noticeClient } from '../hooks/hook-client.ts';
import { hookNotice } from '../hooks/notice.ts';
import { MIN_NODE } from '../node-version.ts';
import { meetsMinimum, nodeCandidates, nodePackageName, type FoundNode } from './find-node.ts';

const dist = __dirname;
const cli = join(dist, 'cli.js');
const args = process.argv.slice(2);

if (meetsMinimum(process.versions.node)) {
  // A path the bundler cannot see through, so it stays a real `import()` of the ES module.
  import(pathToFileURL(cli).href).catch((error: unknown) => {
    process.stderr.write(`groundwork: cannot load ${cli}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
} else {
  const candidates = nodeCandidates({ packageRoot: dirname(dist), pathEnv: process.env['PATH'], current: process.execPath, platform: process.platform, arch: process.arch });
  runOn(candidates, 0);
}

/** Runs the CLI on `candidates[index]`; one that cannot even start (a glibc build on musl) passes to the next. */
function runOn(candidates: readonly FoundNode[], index: number): void {
  const node = candidates[index];
  if (node === undefined) {
    noNode();
    return;
  }
  const child = spawn(node.path, [cli, ...args], { stdio: 'inherit', windowsHide: true });
  const forward = (signal: NodeJS.Signals) => () => {
    child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  let started = false;
  child.once('spawn', () => {
    started = true;
  });
  child.once('error', (error: NodeJS.ErrnoException) => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    if (!started) runOn(candidates, index + 1);
    else {
      process.stderr.write(`groundwork: ${node.path}: ${error.message}\n`);
      process.exit(1);
    }
  });
  child.once('exit', (code, signal) => {
    for (const [name, handler] of handlers) process.off(name, handler);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

function noNode(): void {
  const own = nodePackageName(process.platform, process.arch);
  const line = `needs Node ${MIN_NODE.join('.')} or newer and found none: this is Node ${process.versions.node}, ${own === undefined ? `there is no Node build for ${process.platform}-${process.arch} in the package` : `the package's own Node (${own}) is not installed`}, and no newer node is on PATH. Install Node ${MIN_NODE.join('.')} or newer (or reinstall groundwork-context with optional dependencies).`;
  if (args[0] !== 'hook' || args.includes('--help') || args.includes('-h')) {
    process.stderr.write(`groundwork: ${line}\n`);
    process.exit(1);
  }
  const reply = hookNotice(noticeClient(args), line);
  process.stdout.write(reply.stdout);
  process.stderr.write(reply.stderr);
  process.exitCode = reply.exit;
}
