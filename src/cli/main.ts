#!/usr/bin/env node
/**
 * @module cli/main
 * Node entry of the `groundwork` bin and `npm run context`. Needs Node >= 22.18 (type stripping);
 * npm scripts supply it from devDependencies.
 */
import { runContextCommand } from './context-command.ts';

process.exitCode = await runContextCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
