/**
 * @module cli/stdio
 * The process's stdout and stderr as a CliIo. A closed pipe (`groundwork ... | head`) ends the
 * process quietly instead of crashing on EPIPE.
 *
 * Each stream is made on its first write, not before: `process.stderr` is a stream Node builds
 * when it is first read (for a pipe, a socket over it: about 0.5 ms), and a session-start hook,
 * run with stderr a pipe, writes nothing there unless something went wrong (issue 56). An empty
 * text writes nothing, so it does not make the stream either.
 *
 * For the short-lived commands, stdout and stderr that are a pipe, a socket or a file (what an
 * agent or a script reads a command's output from) are written with `fs.writeSync` on their
 * descriptors, with no stream at all: `process.stdout` over a pipe is a `net` socket, and making
 * it (loading `net` and its handles) took some 4 ms of CPU in a process that writes once
 * (`node -e`, 41 rounds: 36.3 against 32.0 ms for the same 30 KB; 200 KB the same). Such a write
 * blocks until the reader has taken it. Node's own stdout over a pipe is asynchronous on POSIX
 * (Node 22's "A note on process I/O": files and terminals synchronous, pipes and sockets not): it
 * queues what the pipe does not take and the process waits for the queue before it exits, so for
 * a command that writes its answer and ends, the wait is the same, only on the descriptor. A
 * descriptor the parent left non-blocking answers EAGAIN when full, and what is left then goes
 * through the stream. A terminal, and every descriptor on Windows, gets the stream from the start
 * (Node's console handling).
 */
import { fstatSync, writeSync } from 'node:fs';
import type { CliIo } from './context-command.ts';
import type { InterruptSource } from './run/run-command.ts';

/**
 * The short-lived commands (cli/command-flags) write stdout and stderr on their descriptors when
 * they can; the MCP server and `run`, which live for hours and write as they go, keep the streams.
 */
export function processIo(options: { onDescriptors?: boolean } = {}): CliIo {
  if (!options.onDescriptors) return { stdout: writer(() => process.stdout), stderr: writer(() => process.stderr) };
  return { stdout: STDOUT.write, stderr: STDERR.write };
}

/**
 * Whether stdout is written on its descriptor (a pipe, a socket or a file, not on Windows),
 * decided once per process. cli/command-flags asks it too: only a stream needs Node's modules.
 */
export function stdoutIsDirect(): boolean {
  return STDOUT.direct();
}

/**
 * Ends the process with `code` once stdout and stderr have taken everything written to them: at
 * once when every write went to a descriptor (they are done when they return), else after each
 * stream a write fell back to has drained.
 */
export function exitWhenWritten(code: number): void {
  const streams = [STDOUT.stream(), STDERR.stream()].filter((stream) => stream !== undefined);
  if (streams.length === 0) process.exit(code);
  let waiting = streams.length;
  for (const stream of streams) stream.write('', () => --waiting === 0 && process.exit(code));
}

export interface DescriptorWriter {
  write(text: string): void;
  direct(): boolean;
  /** The stream a write made (a terminal, Windows, or a full non-blocking descriptor), if any. */
  stream(): NodeJS.WriteStream | undefined;
}

/** What a descriptor writer asks of the process; tests give their own. */
export interface DescriptorHost {
  platform: string;
  /** Whether `fd` is a pipe, a socket or a file (false when it cannot be told, as for a closed one). */
  writable(fd: number): boolean;
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number;
  exit(code: number | string): void;
}

const NODE_HOST: DescriptorHost = {
  platform: process.platform,
  writable(fd) {
    try {
      const stat = fstatSync(fd);
      return stat.isFIFO() || stat.isSocket() || stat.isFile();
    } catch {
      return false;
    }
  },
  writeSync: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length),
  exit: (code) => process.exit(code),
};

export function descriptorWriter(fd: number, open: () => NodeJS.WriteStream, host: DescriptorHost = NODE_HOST): DescriptorWriter {
  let direct: boolean | undefined;
  let made: NodeJS.WriteStream | undefined;
  const viaStream = writer(() => (made = open()), host);
  const isDirect = () => (direct ??= host.platform !== 'win32' && host.writable(fd));
  return {
    direct: isDirect,
    stream: () => made,
    write(text) {
      if (text === '') return;
      if (made !== undefined || !isDirect()) return viaStream(text);
      const bytes = Buffer.from(text, 'utf8');
      let written = 0;
      try {
        while (written < bytes.length) written += host.writeSync(fd, bytes, written, bytes.length - written);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') return host.exit(process.exitCode ?? 0);
        if (code !== 'EAGAIN') throw error;
        // A non-blocking descriptor that is full: the stream waits for it; nothing is lost or reordered.
        viaStream(bytes.subarray(written));
      }
    },
  };
}

const STDOUT = descriptorWriter(1, () => process.stdout);
const STDERR = descriptorWriter(2, () => process.stderr);

/** A write to the stream `open` gives, which gets the EPIPE handler before its first write. */
function writer(open: () => NodeJS.WriteStream, host: Pick<DescriptorHost, 'exit'> = NODE_HOST): (text: string | Uint8Array) => void {
  let stream: NodeJS.WriteStream | undefined;
  return (text) => {
    if (text.length === 0) return;
    if (stream === undefined) {
      stream = open();
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') return host.exit(process.exitCode ?? 0);
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
