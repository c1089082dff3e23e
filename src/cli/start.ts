#!/usr/bin/env node
/**
 * @module cli/start
 * `npm start`: `groundwork run --keep` on the example project committed into a fresh repository
 * (see example-repo): the whole service on this machine, with a task already assembled. Extra
 * arguments are passed on, e.g. `npm start -- --json`. The example repository is deleted when the
 * service stops.
 */
import { commitExample, EXAMPLE_ARGS, removeExample } from './example-repo.ts';
import { runRunCommand } from './run/run-command.ts';
import { processIo, processSignals } from './stdio.ts';

const { dir, commit } = await commitExample();
const io = processIo();
io.stderr(`example repository: ${dir} (main at ${commit}; deleted when the service stops)\n`);
try {
  process.exitCode = await runRunCommand(['--repo', dir, ...EXAMPLE_ARGS, '--keep', ...process.argv.slice(2)], io, { signals: processSignals() });
} finally {
  removeExample(dir);
  io.stderr(`deleted the example repository ${dir}\n`);
}
