#!/usr/bin/env node
/**
 * @module cli/main
 * Node entry of the `groundwork` bin and `npm run context`. Needs Node >= 22.18 (type stripping);
 * npm scripts supply it from devDependencies. `groundwork freshness ...` runs the freshness
 * check; anything else is `groundwork context`.
 */
import { runContextCommand } from './context-command.ts';
import { runFreshnessCommand } from './freshness-command.ts';
import { processIo } from './stdio.ts';

const [command, ...rest] = process.argv.slice(2);
process.exitCode = command === 'freshness' ? await runFreshnessCommand(rest, processIo()) : await runContextCommand(process.argv.slice(2), processIo());
