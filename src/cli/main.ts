#!/usr/bin/env node
/**
 * @module cli/main
 * Entry of the `groundwork` bin (`dist/cli.js`). Only Node built-ins load before a command is
 * chosen, so `--help` and `--version` answer without loading the pipeline; each command's code is
 * imported on demand; with no command it runs `context` on the directory the user is in. Exit codes: 0 done, 1 the repository or service failed, 2 bad usage.
 *
 * This is the one ES module a run evaluates, and it imports no Node built-in: an ES module's
 * `import … from 'node:fs'` builds the module's ESM facade, which reads every export (`fs`'s
 * streams, `crypto`'s Web Crypto and its keys) whether or not it is used, about a tenth of what
 * `node -e 0` costs (issue 56). Built-ins come from `process.getBuiltinModule` once the Node is
 * known to be new enough, and a command's loader (cli/code-cache) is CommonJS
 * (`dist/commands/code-cache.cjs`), whose `require` reads only what it asks for.
 */
import type { CommandBundle } from './command-bundles.ts';
import { nodeVersionProblem, supportedNode } from './node-version.ts';
import { COMMANDS_USAGE, usageError } from './usage.ts';
import { packageVersion } from './version.ts';
import { processIo, processSignals } from './stdio.ts';

if (!supportedNode(process.versions.node)) {
  // An older Node: the only path that imports a built-in the ES module way (an old Node may have no getBuiltinModule).
  const [{ existsSync }, { fileURLToPath }] = await Promise.all([import('node:fs'), import('node:url')]);
  const cli = fileURLToPath(import.meta.url);
  process.stderr.write(nodeVersionProblem(process.versions.node, fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, ''), cli, existsSync) ?? '');
  process.exit(1);
}
const nodeModule = process.getBuiltinModule('node:module');
const { existsSync } = process.getBuiltinModule('node:fs');
const { fileURLToPath } = process.getBuiltinModule('node:url');
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
      process.stderr.write(usageError('groundwork', `unknown command "${name}"`, 'groundwork --help'));
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
  // Built beside the commands (scripts/build): a CommonJS script, so it imports no ESM facade.
  const { runCachedScript } = nodeModule.createRequire(bundle)('./code-cache.cjs') as typeof import('./code-cache.ts');
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
