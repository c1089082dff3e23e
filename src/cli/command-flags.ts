/**
 * @module cli/command-flags
 * V8 settings for a command that lives a fraction of a second (`context`, `hook`, `rules`,
 * `check`, `freshness`), set in the process before its bundle is compiled (cli/script-entry,
 * cli/main). Not for `mcp`: a server that runs for hours wants V8's defaults.
 *
 * What they save, measured on the hook (issue 56; docs/benchmarks.md, branch hook-flags):
 * - TurboFan: a session-start hook makes V8 optimise one function, the boundary hash of
 *   context/section (a loop over some 17,000 characters), twice (on-stack replacement and then
 *   whole), on a background thread: some 10 ms of CPU, and its compiler's memory, for a process
 *   that ends a few ms later. Ten times V8's invocation counts before TurboFan (and before
 *   on-stack replacement) leave such a loop to the interpreter or Sparkplug; a command that does
 *   run long still gets its hot code optimised, only later.
 * - New space: V8 doubles the young generation as it fills (1 MB, 2, 4…); almost everything
 *   a command allocates lives to its end, so each doubling only adds fresh pages to fault in,
 *   scavenges copy the same objects, and the process touches some 2 MB more memory. A growth
 *   factor of 1 keeps it at its first size.
 * - Sparkplug, for `context` and `hook` only: V8 compiles functions that have run a while to
 *   baseline code, in batches on the main thread; in a process of some 60 ms the compile does not
 *   pay for itself. Without it both took 1.5 to 2 ms less CPU (61 interleaved rounds beside the
 *   flags above: one file, workers-sdk, the hook; 2026-12-07); a 390 KB AGENTS.md and 150 skills
 *   took the same. `rules` walks a whole tree, and on 24,000 files (0.25 s) it was some 10% slower
 *   without baseline code, so it, `check` and `freshness` keep it.
 *
 * V8 reads these where it uses them (tiering budgets, new space growth), so setting them after
 * start takes effect; Node's docs warn that a flag set at run time may do nothing or worse
 * (`v8.setFlagsFromString`, Node 22), so only these, which were measured, and only on the V8
 * they were measured on: an unknown flag makes V8 print an error, and another V8 may read them
 * differently. They are part of V8's flag hash, which a code cache is checked against, so they
 * are set before the bundle's cache is read, the same way every run of that command.
 */
import type { CommandBundle } from './command-bundles.ts';
import { stdoutIsDirect } from './stdio.ts';

/** Short-lived commands' settings (see the module comment); V8's defaults are 3000, 800 (Node 22) and 2. */
export const SHORT_LIVED_V8_FLAGS: readonly string[] = ['--invocation-count-for-turbofan=30000', '--invocation-count-for-osr=8000', '--semi-space-growth-factor=1'];

/** `context`'s and the hook's: no baseline compiler either (see the module comment). */
export const SESSION_V8_FLAGS: readonly string[] = [...SHORT_LIVED_V8_FLAGS, '--no-sparkplug'];

export const COMMAND_V8_FLAGS: { readonly [K in CommandBundle]: readonly string[] } = {
  context: SESSION_V8_FLAGS,
  freshness: SHORT_LIVED_V8_FLAGS,
  rules: SHORT_LIVED_V8_FLAGS,
  check: SHORT_LIVED_V8_FLAGS,
  hook: SESSION_V8_FLAGS,
  mcp: [],
};

/** What a command's process uses of Node's own modules, made before its flags (see the module comment). */
export type BuiltinUse = 'crypto' | 'stdin' | 'stdout' | 'stderr' | 'zlib' | 'parseArgs' | 'navigator';

/**
 * stderr only for the hook: Node makes it anyway as the hook's stdin pipe ends (net.Socket's
 * destroy reads `process.stderr`); the others make it only when they have something to say there
 * (test/node/hook-process-work), which is not worth a stream made on every run.
 */
export const BUILTINS_BEFORE_FLAGS: { readonly [K in CommandBundle]: readonly BuiltinUse[] } = {
  // node:crypto for every command: each hashes with it (cli/node-sha256).
  context: ['stdout', 'zlib', 'crypto', 'parseArgs'],
  freshness: ['stdout', 'zlib', 'crypto', 'parseArgs'],
  rules: ['stdout', 'zlib', 'crypto', 'parseArgs'],
  // Octokit's universal-user-agent reads navigator.userAgent as its module loads.
  check: ['stdout', 'zlib', 'crypto', 'navigator'],
  // The hook reads its input from stdin and takes no options but --client, read by hand.
  hook: ['stdin', 'stdout', 'stderr', 'zlib', 'crypto'],
  mcp: [],
};

/** The V8 majors the flags were measured on: Node 22's V8 12.4. */
const MEASURED_V8_MAJORS: readonly number[] = [12];

/** The flags a command runs with on this V8 (none on one they were not measured on). */
export function commandFlags(name: CommandBundle, v8Version: string = process.versions.v8): readonly string[] {
  const major = Number(v8Version.split('.')[0]);
  return MEASURED_V8_MAJORS.includes(major) ? COMMAND_V8_FLAGS[name] : [];
}

/**
 * Sets the command's flags in this process, before its bundle is compiled, once the built-ins it
 * uses are loaded; returns the flags.
 */
export function setCommandFlags(name: CommandBundle, setFlags: (flags: string) => void): readonly string[] {
  const flags = commandFlags(name);
  if (flags.length === 0) return flags;
  for (const use of BUILTINS_BEFORE_FLAGS[name]) loadBuiltin(use);
  setFlags(flags.join(' '));
  return flags;
}

/** Makes what `use` names; the streams are Node's lazy getters, made once and kept. */
function loadBuiltin(use: BuiltinUse): void {
  switch (use) {
    case 'stdin':
      return void process.stdin;
    case 'stdout':
      // A pipe, a socket or a file is written on its descriptor (cli/stdio): no stream, no `net`.
      if (!stdoutIsDirect()) void process.stdout;
      return;
    case 'stderr':
      return void process.stderr;
    case 'crypto':
      return void process.getBuiltinModule('node:crypto');
    case 'zlib':
      return void process.getBuiltinModule('node:zlib');
    case 'parseArgs':
      // util's parseArgs is a lazy property: reading it loads its module.
      return void process.getBuiltinModule('node:util').parseArgs;
    case 'navigator':
      // A lazy global too (Node 21 and later).
      return void globalThis.navigator;
  }
}
