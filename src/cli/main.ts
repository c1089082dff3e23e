#!/usr/bin/env node
/**
 * @module cli/main
 * Node entry of the `groundwork` bin and `npm run context`. Needs Node >= 22.18 (type stripping);
 * npm scripts supply it from devDependencies.
 */
import { runContextCommand } from './context-command.ts';
import { processIo } from './stdio.ts';

process.exitCode = await runContextCommand(process.argv.slice(2), processIo());
