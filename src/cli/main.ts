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
import { existsSync } from 'node:fs';
import type { CommandBundle } from './command-bundles.ts';
import { nodeVersionProblem } from './node-version.ts';
import { COMMANDS_USAGE } from './usage.ts';
import { packageVersion } from './version.ts';
import { processIo, processSignals } from './stdio.ts';

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
      const command = await loadCommand('freshness', () => import('./freshness-command.ts'));
      return command.finished(await command.module.runFreshnessCommand(args, processIo()));
    }
    case 'rules': {
      const command = await loadCommand('rules', () => import('./rules-command.ts'));
      return command.finished(await command.module.runRulesCommand(args, processIo()));
    }
    case 'check': {
      const command = await loadCommand('check', () => import('./check-command.ts'));
      return command.finished(await command.module.runCheckCommand(args, processIo()));
    }
    case 'run': {
      const { runRunCommand } = await import('./run/run-command.ts');
      return runRunCommand(args, processIo(), { signals: processSignals() });
    }
    case 'mcp': {
      const command = await loadCommand('mcp', () => import('./mcp.ts'));
      return command.finished(await command.module.runMcpCommand(args, processIo()));
    }
    case 'hook': {
      const command = await loadCommand('hook', () => import('./hook.ts'));
      const code = command.finished(await command.module.runHookCommand(args, processIo(), { stdin: readStdin }));
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
  const command = await loadCommand('context', () => import('./context-command.ts'));
  return command.finished(await command.module.runContextCommand(args, processIo()));
}

/**
 * A command's module: the built bundle (`dist/commands/<name>.cjs`) run with its code cache
 * (cli/code-cache), or the source module when this runs from `src/` with no bundle beside it.
 * `finished` keeps the cache after the first run that succeeded.
 */
async function loadCommand<T>(name: CommandBundle, source: () => Promise<T>): Promise<{ module: T; finished(code: number): number }> {
  const bundle = fileURLToPath(new URL(`./commands/${name}.cjs`, import.meta.url));
  if (!existsSync(bundle)) return { module: await source(), finished: (code) => code };
  const { runCachedScript } = await import('./code-cache.ts');
  const script = runCachedScript<T>(bundle);
  return {
    module: script.exports,
    finished(code) {
      if (code === 0) script.save();
      return code;
    },
  };
}

/** stdin up to `maxBytes` + 1 bytes: enough to tell an input over the limit, never all of a huge one. */
async function readStdin(maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    chunks.push(bytes);
    size += bytes.byteLength;
    if (size > maxBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, maxBytes + 1).toString('utf8');
}
