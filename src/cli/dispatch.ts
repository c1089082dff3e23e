/**
 * @module cli/dispatch
 * Which command a `groundwork` invocation runs, shared by the bin's two entries: `dist/cli.cjs`
 * (cli/script-entry), which the launcher requires on a current Node, and `dist/cli.js`
 * (cli/main), the ES module that also runs from `src/` and serves `groundwork run`. Each entry
 * says how a command's module is loaded (the built bundle with its code cache, or the source),
 * so this module imports no command and no Node built-in. Exit codes: 0 done, 1 the repository
 * or service failed, 2 bad usage.
 */
import type { CommandBundle } from './command-bundles.ts';
import { COMMANDS_USAGE, usageError } from './usage.ts';
import { packageVersion } from './version.ts';
import { exitWhenWritten, processIo } from './stdio.ts';

/** The module each command bundle is built from. */
export interface CommandModules {
  context: typeof import('./context-command.ts');
  freshness: typeof import('./freshness-command.ts');
  rules: typeof import('./rules-command.ts');
  check: typeof import('./check-command.ts');
  hook: typeof import('./hook.ts');
  mcp: typeof import('./mcp.ts');
}

/** A command's module, and `finished`, told the exit code when it returns (the code cache is kept after a success). */
export interface LoadedCommand<T> {
  module: T;
  finished(code: number): number;
}

export interface CommandLoader {
  load<K extends CommandBundle>(name: K): Promise<LoadedCommand<CommandModules[K]>>;
  /** `groundwork run`: Miniflare is an ES module, so it is the ES entry's (cli/main). */
  run(args: string[]): Promise<number>;
}

/** Runs `argv` (after the node and script paths) and sets the exit code; anything unexpected is one line, never a stack trace. */
export async function runMain(argv: readonly string[], loader: CommandLoader): Promise<void> {
  const [command, ...rest] = argv;
  process.exitCode = await dispatch(command, rest, loader).catch((error: unknown) => {
    process.stderr.write(`groundwork: internal error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
    return 1;
  });
}

async function dispatch(name: string | undefined, args: string[], loader: CommandLoader): Promise<number> {
  switch (name) {
    case undefined:
      return runContext([], loader);
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
      return runContext(args, loader);
    case 'freshness': {
      const command = await loader.load('freshness');
      return command.finished(await command.module.runFreshnessCommand(args, processIo({ onDescriptors: true })));
    }
    case 'rules': {
      const command = await loader.load('rules');
      return command.finished(await command.module.runRulesCommand(args, processIo({ onDescriptors: true })));
    }
    case 'check': {
      const command = await loader.load('check');
      return command.finished(await command.module.runCheckCommand(args, processIo({ onDescriptors: true })));
    }
    case 'run':
      return loader.run(args);
    case 'mcp': {
      const command = await loader.load('mcp');
      return command.finished(await command.module.runMcpCommand(args, processIo()));
    }
    case 'hook': {
      const command = await loader.load('hook');
      const code = command.finished(await command.module.runHookCommand(args, processIo({ onDescriptors: true }), { stdin: readStdin }));
      // A read still pending past the deadline must not hold the agent's session start.
      exitWhenWritten(code);
      return code;
    }
    default:
      // `groundwork --repo x` is `groundwork context --repo x`, as before commands existed.
      if (name.startsWith('-')) return runContext([name, ...args], loader);
      process.stderr.write(usageError('groundwork', `unknown command "${name}"`, 'groundwork --help'));
      return 2;
  }
}

async function runContext(args: string[], loader: CommandLoader): Promise<number> {
  const command = await loader.load('context');
  return command.finished(await command.module.runContextCommand(args, processIo({ onDescriptors: true })));
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
