/**
 * @module cli/launcher/launcher
 * The `groundwork` command (`dist/groundwork.cjs`, the package's `bin`). npm links it to run on
 * the first `node` on PATH, which may be too old for the CLI (Debian's is 20; agents and
 * non-interactive shells get no `alias`). So it starts the CLI itself on a Node that can run it:
 * - the Node running it, when it is 22.12 or newer: the CLI is loaded in this process (`dist/cli.cjs`,
 *   cli/script-entry; or `dist/cli.js`, the ES module, when a copy of the package has only that);
 * - else the package's own Node (its `node-<platform>-<arch>` optional dependency), then any other
 *   `node` on PATH that is new enough (cli/launcher/find-node), as a child with the same stdio,
 *   arguments, environment and exit status (cli/launcher/other-node);
 * - else one line on stderr and exit 1, or for `groundwork hook` the notice of the agent running
 *   it (a JSON `systemMessage` and exit 0; Copilot: stderr and exit 2), so a session still starts.
 * CommonJS, Node built-ins only, and syntax an old Node parses (esbuild targets Node 14 here).
 *
 * The first path is every run on a current Node, a session-start hook included, so it requires
 * nothing Node has not loaded for `node -e 0` already (`path` and `url` are part of its start-up):
 * `child_process` alone brings `net`, `dgram` and the streams with it (issue 56). The other
 * paths are a lazy import, which esbuild keeps unevaluated until it runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { supportedNode } from '../node-version.ts';

const dist = __dirname;
const cli = join(dist, 'cli.js');
const script = join(dist, 'cli.cjs');

if (supportedNode(process.versions.node)) {
  // The CLI as a CommonJS script (cli/script-entry): no ES module loader starts for a command.
  // A copy of the package with `cli.js` alone still runs, the ES module way.
  if (existsSync(script)) {
    try {
      require(script);
    } catch (error) {
      cannotLoad(script, error);
    }
  } else {
    // A path the bundler cannot see through, so it stays a real `import()` of the ES module.
    import(pathToFileURL(cli).href).catch((error: unknown) => cannotLoad(cli, error));
  }
} else {
  void import('./other-node.ts').then((other) => other.runOnAnotherNode(dist, cli, process.argv.slice(2)));
}

function cannotLoad(file: string, error: unknown): void {
  process.stderr.write(`groundwork: cannot load ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
