#!/usr/bin/env node
/**
 * @module cli/main
 * `dist/cli.js`, the CLI as an ES module: what `node dist/cli.js` and `node src/cli/main.ts` run,
 * and what the launcher imports for `groundwork run` (Miniflare is an ES module) or when
 * `dist/cli.cjs` (cli/script-entry, the same commands without an ES module loader) is absent.
 * Only Node built-ins load before a command is chosen (cli/dispatch), so `--help` and
 * `--version` answer without loading the pipeline; each command's code is imported on demand;
 * with no command it runs `context` on the directory the user is in.
 *
 * It imports no Node built-in: an ES module's `import … from 'node:fs'` builds the module's ESM
 * facade, which reads every export (`fs`'s streams, `crypto`'s Web Crypto and its keys) whether
 * or not it is used, about a tenth of what `node -e 0` costs (issue 56). Built-ins come from
 * `process.getBuiltinModule` once the Node is known to be new enough, and a command's loader
 * (cli/code-cache) is CommonJS (`dist/commands/code-cache.cjs`), whose `require` reads only
 * what it asks for.
 */
import type { CommandBundle } from './command-bundles.ts';
import { setCommandFlags } from './command-flags.ts';
import { runMain, type CommandLoader, type CommandModules, type LoadedCommand } from './dispatch.ts';
import { nodeVersionProblem, supportedNode } from './node-version.ts';
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

/** Each command's source module, for a run from `src/` with no bundle beside it. */
const SOURCES: { [K in CommandBundle]: () => Promise<CommandModules[K]> } = {
  context: () => import('./context-command.ts'),
  freshness: () => import('./freshness-command.ts'),
  rules: () => import('./rules-command.ts'),
  check: () => import('./check-command.ts'),
  hook: () => import('./hook.ts'),
  mcp: () => import('./mcp.ts'),
};

const loader: CommandLoader = {
  load: loadCommand,
  async run(args) {
    const { runRunCommand } = await import('./run/run-command.ts');
    return runRunCommand(args, processIo(), { signals: processSignals() });
  },
};

await runMain(process.argv.slice(2), loader);

/**
 * A command's module: the built bundle (`dist/commands/<name>.cjs`) run with its code cache
 * (cli/code-cache), or the source module when this runs from `src/` with no bundle beside it.
 * `finished` keeps the cache after the first run that succeeded.
 */
async function loadCommand<K extends CommandBundle>(name: K): Promise<LoadedCommand<CommandModules[K]>> {
  const bundle = fileURLToPath(new URL(`./commands/${name}.cjs`, import.meta.url));
  if (!existsSync(bundle)) return { module: await SOURCES[name](), finished: (code) => code };
  // The same V8 flags as through dist/cli.cjs, so the two entries share the bundle's code cache.
  const flags = setCommandFlags(name, (set) => process.getBuiltinModule('node:v8').setFlagsFromString(set));
  // Built beside the commands (scripts/build): a CommonJS script, so it imports no ESM facade.
  const { runCachedScript } = nodeModule.createRequire(bundle)('./code-cache.cjs') as typeof import('./code-cache.ts');
  const script = runCachedScript<CommandModules[K]>(bundle, { flags });
  return {
    module: script.exports,
    finished(code) {
      if (code === 0) script.save();
      return code;
    },
  };
}
