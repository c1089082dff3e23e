/**
 * @module cli/script-entry
 * `dist/cli.cjs`: the CLI's commands as one CommonJS script, which the launcher
 * (`dist/groundwork.cjs`) requires on a Node new enough to run them. It is cli/main without the
 * ES module: importing `dist/cli.js` from CommonJS starts Node's ES module loader (about a dozen
 * of Node's own modules, resolving, linking), some 10 ms of CPU on every run before a command is
 * chosen, an eighth of `node -e 0` (issue 56); a `require` of a script starts none of it. Every
 * command the bin runs per invocation is a bundle run with its code cache (cli/code-cache), so
 * nothing here needs an ES module but `groundwork run`, which Miniflare's start-up dwarfs: it
 * imports `dist/cli.js`, which runs it from the same arguments.
 *
 * Only the launcher requires it, once it has checked the Node version (cli/launcher).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCachedScript } from './code-cache.ts';
import { setCommandFlags } from './command-flags.ts';
import type { CommandBundle } from './command-bundles.ts';
import { runMain, type CommandLoader, type CommandModules, type LoadedCommand } from './dispatch.ts';

const loader: CommandLoader = {
  load: loadCommand,
  async run() {
    // A path the bundler cannot see through, so it stays a real `import()` of the ES module,
    // which dispatches `run` from process.argv itself and sets the exit code.
    const cli = pathToFileURL(join(__dirname, 'cli.js')).href;
    await import(cli);
    return Number(process.exitCode ?? 0);
  },
};

void runMain(process.argv.slice(2), loader);

/**
 * A command's bundle (`dist/commands/<name>.cjs`) run with its code cache, kept after the first
 * run that succeeded; first the command's V8 flags (cli/command-flags), which the cache is keyed
 * by and checked against.
 */
async function loadCommand<K extends CommandBundle>(name: K): Promise<LoadedCommand<CommandModules[K]>> {
  const flags = setCommandFlags(name, (set) => process.getBuiltinModule('node:v8').setFlagsFromString(set));
  const script = runCachedScript<CommandModules[K]>(join(__dirname, 'commands', `${name}.cjs`), { flags });
  return {
    module: script.exports,
    finished(code) {
      if (code === 0) script.save();
      return code;
    },
  };
}
