#!/usr/bin/env node
/**
 * @module cli/demo
 * `npm run demo`: commits the example project (examples/calculator) into a fresh git repository
 * in a temporary directory and runs `groundwork context` on it. The commit uses a fixed author
 * and time, so its id is the same on every machine.
 * Extra arguments are passed to the context command, e.g. `npm run demo -- --json`.
 */
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { add, commit, init } from 'isomorphic-git';
import { runContextCommand } from './context-command.ts';
import { processIo } from './stdio.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/calculator', import.meta.url));
const AUTHOR = { name: 'Groundwork Demo', email: 'demo@groundwork.invalid', timestamp: 1_767_225_600, timezoneOffset: 0 };

const dir = mkdtempSync(join(tmpdir(), 'groundwork-demo-'));
fs.cpSync(EXAMPLE, dir, { recursive: true });
await init({ fs, dir, defaultBranch: 'main' });
await add({ fs, dir, filepath: '.' });
const sha = await commit({ fs, dir, message: 'Calculator example', author: AUTHOR, committer: AUTHOR });

const io = processIo();
io.stderr(`demo repository: ${dir} (main at ${sha})\n`);
const defaults = ['--repo', dir, '--cwd', 'src', '--task', 'Add a square root operation. Use $add-operation.'];
process.exitCode = await runContextCommand([...defaults, ...process.argv.slice(2)], io);
