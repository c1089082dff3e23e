#!/usr/bin/env node
/**
 * @module cli/demo
 * `npm run demo`: `groundwork context` on the example project committed into a fresh repository
 * (see example-repo), which is deleted afterwards. Extra arguments are passed on, e.g.
 * `npm run demo -- --json`.
 */
import { runContextCommand } from './context-command.ts';
import { commitExample, EXAMPLE_ARGS, removeExample } from './example-repo.ts';
import { processIo } from './stdio.ts';

const { dir, commit } = await commitExample();
const io = processIo();
io.stderr(`demo repository: ${dir} (main at ${commit}; deleted when done)\n`);
try {
  process.exitCode = await runContextCommand(['--repo', dir, ...EXAMPLE_ARGS, ...process.argv.slice(2)], io);
} finally {
  removeExample(dir);
}
