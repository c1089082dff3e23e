/**
 * @module cli/stdio
 * The process's stdout and stderr as a CliIo. A closed pipe (`groundwork ... | head`) ends the
 * process quietly instead of crashing on EPIPE.
 */
import type { CliIo } from './context-command.ts';
import type { InterruptSource } from './run/run-command.ts';

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

/** Ctrl-C and SIGTERM. A second Ctrl-C is left to Node's default, so a stuck stop can be forced. */
export function processSignals(): InterruptSource {
  return {
    onInterrupt(handler) {
      process.once('SIGINT', handler);
      process.once('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}
