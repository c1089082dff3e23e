/**
 * @module cli/stdio
 * The process's stdout and stderr as a CliIo. A closed pipe (`groundwork ... | head`) ends the
 * process quietly instead of crashing on EPIPE.
 */
import type { CliIo } from './context-command.ts';

export function processIo(): CliIo {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
}
