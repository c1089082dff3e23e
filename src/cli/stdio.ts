/**
 * @module cli/stdio
 * The process's stdout and stderr as a CliIo. A closed pipe (`groundwork ... | head`) ends the
 * process quietly instead of crashing on EPIPE.
 *
 * Each stream is made on its first write, not before: `process.stderr` is a stream Node builds
 * when it is first read (for a pipe, a socket over it: about 0.5 ms), and a session-start hook,
 * run with stderr a pipe, writes nothing there unless something went wrong (issue 56). An empty
 * text writes nothing, so it does not make the stream either.
 */
import type { CliIo } from './context-command.ts';
import type { InterruptSource } from './run/run-command.ts';

export function processIo(): CliIo {
  return { stdout: writer(() => process.stdout), stderr: writer(() => process.stderr) };
}

/** A write to the stream `open` gives, which gets the EPIPE handler before its first write. */
function writer(open: () => NodeJS.WriteStream): (text: string) => void {
  let stream: NodeJS.WriteStream | undefined;
  return (text) => {
    if (text === '') return;
    if (stream === undefined) {
      stream = open();
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw error;
      });
    }
    stream.write(text);
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
