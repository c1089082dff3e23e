#!/usr/bin/env node
/**
 * @module cli/main
 * Entry of the `groundwork` bin (`dist/cli.js`). Only Node built-ins load before a command is
 * chosen, so `--help` and `--version` answer without loading the pipeline; each command's code is
 * imported on demand; with no command it runs `context` on the directory the user is in. Exit codes: 0 done, 1 the repository or service failed, 2 bad usage.
 */
import * as nodeModule from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersionProblem } from './node-version.ts';
import { COMMANDS_USAGE } from './usage.ts';
import { packageVersion } from './version.ts';

const cli = fileURLToPath(import.meta.url);
const tooOld = nodeVersionProblem(process.versions.node, dirname(dirname(cli)), cli);
if (tooOld !== undefined) {
  process.stderr.write(tooOld);
  process.exit(1);
}
// Compiled code of the bundle is cached between runs (Node 22.1+); most of a run is loading code.
nodeModule.enableCompileCache?.();

const [command, ...rest] = process.argv.slice(2);
// Expected failures are exit codes with a reason; anything else is still one line, never a stack trace.
process.exitCode = await dispatch(command, rest).catch((error: unknown) => {
  process.stderr.write(`groundwork: internal error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
  return 1;
});

async function dispatch(name: string | undefined, args: string[]): Promise<number> {
  switch (name) {
    case undefined:
      return runContext([]);
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${COMMANDS_USAGE}\n`);
      return 0;
    case '-v':
    case '--version':
      process.stdout.write(`groundwork ${packageVersion()}\n`);
      return 0;
    case 'context':
      return runContext(args);
    case 'freshness': {
      const [{ runFreshnessCommand }, { processIo }] = await Promise.all([import('./freshness-command.ts'), import('./stdio.ts')]);
      return runFreshnessCommand(args, processIo());
    }
    case 'check': {
      const [{ runCheckCommand }, { processIo }] = await Promise.all([import('./check-command.ts'), import('./stdio.ts')]);
      return runCheckCommand(args, processIo());
    }
    case 'run': {
      const [{ runRunCommand }, { processIo, processSignals }] = await Promise.all([import('./run/run-command.ts'), import('./stdio.ts')]);
      return runRunCommand(args, processIo(), { signals: processSignals() });
    }
    case 'mcp': {
      const [{ runMcpCommand }, { processIo }] = await Promise.all([import('./mcp.ts'), import('./stdio.ts')]);
      return runMcpCommand(args, processIo());
    }
    case 'hook': {
      const [{ runHookCommand }, { processIo }] = await Promise.all([import('./hook.ts'), import('./stdio.ts')]);
      const code = await runHookCommand(args, processIo(), { stdin: readStdin });
      // A read still pending past the deadline must not hold the agent's session start.
      process.stdout.write('', () => process.exit(code));
      return code;
    }
    default:
      // `groundwork --repo x` is `groundwork context --repo x`, as before commands existed.
      if (name.startsWith('-')) return runContext([name, ...args]);
      process.stderr.write(`groundwork: unknown command "${name}"\n\n${COMMANDS_USAGE}\n`);
      return 2;
  }
}

async function runContext(args: string[]): Promise<number> {
  const [{ runContextCommand }, { processIo }] = await Promise.all([import('./context-command.ts'), import('./stdio.ts')]);
  return runContextCommand(args, processIo());
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
