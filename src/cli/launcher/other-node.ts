/**
 * @module cli/launcher/other-node
 * The launcher's path on a Node too old for the CLI (cli/launcher): the CLI as a child of the
 * package's own Node or a newer one on PATH, else the one-line notice. Loaded only on that path.
 */
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { noticeClient } from '../hooks/hook-client.ts';
import { hookNotice } from '../hooks/notice.ts';
import { MIN_NODE } from '../node-version.ts';
import { nodeCandidates, nodePackageName, type FoundNode } from './find-node.ts';

export function runOnAnotherNode(dist: string, cli: string, args: readonly string[]): void {
  const candidates = nodeCandidates({ packageRoot: dirname(dist), pathEnv: process.env['PATH'], current: process.execPath, platform: process.platform, arch: process.arch });
  runOn(candidates, 0, cli, args);
}

/** Runs the CLI on `candidates[index]`; one that cannot even start (a glibc build on musl) passes to the next. */
function runOn(candidates: readonly FoundNode[], index: number, cli: string, args: readonly string[]): void {
  const node = candidates[index];
  if (node === undefined) {
    noNode(args);
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
    if (!started) runOn(candidates, index + 1, cli, args);
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

function noNode(args: readonly string[]): void {
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
