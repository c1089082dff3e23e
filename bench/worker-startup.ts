/**
 * Worker start-up (issue 28): CPU a cold isolate spends evaluating the bundle, Groundwork beside
 * a trivial Hono Worker (`bench/workers/hono-hello`), from `wrangler check startup` profiles taken
 * interleaved (A B A B) in one run, medians; and the bundle's size gzipped as the budget in
 * `.ci/check-bundle.mjs` counts it. Goals (issue 56): start-up at most 1.5x the trivial Worker's, upload at
 * most 250 KiB gzipped. Each Worker is bundled once, as `wrangler deploy --dry-run` would, and
 * every profile starts workerd on that bundle. The same cold starts are also sampled every 100 µs
 * (bench/startup-profile), which the trivial Worker's few-millisecond start needs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';
import * as z from 'zod';
import { uploadSize } from '../scripts/worker-build.ts';
import { fineStartupBusyMs, type WorkerBundle } from './startup-profile.ts';

const RUNS = Number(process.env.STARTUP_RUNS ?? 7);
const WRANGLER = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TRIVIAL_CONFIG = fileURLToPath(new URL('./workers/hono-hello/wrangler.toml', import.meta.url));

/** The parts of a V8 `.cpuprofile` the sum needs. */
const CpuProfile = z.object({
  nodes: z.array(z.object({ id: z.number(), callFrame: z.object({ functionName: z.string() }) })),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
  startTime: z.number(),
  endTime: z.number(),
});

export async function benchWorkerStartup(): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'groundwork-bench-startup-'));
  try {
    const groundwork = bundle(join(work, 'groundwork'), []);
    const trivial = bundle(join(work, 'trivial'), ['--config', TRIVIAL_CONFIG]);
    // The authorization Worker's own upload (wrangler.auth.toml), which people's sign-ins left for.
    const auth = bundle(join(work, 'auth'), ['--config', join(ROOT, 'wrangler.auth.toml')]);
    const runs: Record<'groundwork' | 'trivial', Array<{ busyMs: number; spanMs: number }>> = { groundwork: [], trivial: [] };
    for (let run = 0; run < RUNS; run++) {
      runs.groundwork.push(startupProfile(groundwork.file, [], join(work, `g${run}.cpuprofile`)));
      runs.trivial.push(startupProfile(trivial.file, ['--config', TRIVIAL_CONFIG], join(work, `t${run}.cpuprofile`)));
    }
    // The same cold start sampled every 100 µs (bench/startup-profile): at wrangler's 1 ms the
    // trivial Worker's runs hold a handful of samples, some none, and its median moves the ratio.
    const fine: Record<'groundwork' | 'trivial', number[]> = { groundwork: [], trivial: [] };
    const fineBundles = { groundwork: workerBundle(groundwork.dir, join(ROOT, 'wrangler.toml')), trivial: workerBundle(trivial.dir, TRIVIAL_CONFIG) };
    for (let run = 0; run < RUNS; run++) {
      fine.groundwork.push(await fineStartupBusyMs(fineBundles.groundwork));
      fine.trivial.push(await fineStartupBusyMs(fineBundles.trivial));
    }
    const fineOf = (worker: 'groundwork' | 'trivial') => median(fine[worker]);
    const fineEach = (worker: 'groundwork' | 'trivial') => fine[worker].map((ms) => ms.toFixed(1)).join(', ');
    const busy = (worker: 'groundwork' | 'trivial') => median(runs[worker].map((run) => run.busyMs));
    const span = (worker: 'groundwork' | 'trivial') => median(runs[worker].map((run) => run.spanMs));
    const each = (worker: 'groundwork' | 'trivial') => runs[worker].map((run) => run.busyMs.toFixed(0)).join(', ');
    return [
      `Worker start-up CPU (wrangler check startup, local workerd, ${RUNS} interleaved runs, medians): Groundwork ${busy('groundwork').toFixed(1)} ms (${each('groundwork')}), trivial Hono Worker ${busy('trivial').toFixed(1)} ms (${each('trivial')}), Groundwork / trivial = ${coarseRatio(busy('groundwork'), busy('trivial'))}`,
      `Worker start-up profile span: Groundwork ${span('groundwork').toFixed(1)} ms, trivial ${span('trivial').toFixed(1)} ms, Groundwork / trivial = ${ratio(span('groundwork'), span('trivial'))}`,
      `Worker start-up CPU sampled every 100 us (Miniflare and V8's profiler as wrangler check startup uses them, a sample counting at most 1 ms, ${RUNS} interleaved runs, medians): Groundwork ${fineOf('groundwork').toFixed(1)} ms (${fineEach('groundwork')}), trivial Hono Worker ${fineOf('trivial').toFixed(1)} ms (${fineEach('trivial')}), Groundwork / trivial = ${ratio(fineOf('groundwork'), fineOf('trivial'))} (goal <= 1.5)`,
      `Worker bundle: ${groundwork.kib.toFixed(1)} KiB, ${groundwork.gzipKib.toFixed(1)} KiB gzipped (goal <= 250 with everything this wave adds, issue 56; trivial Worker ${trivial.gzipKib.toFixed(1)} KiB gzipped)`,
      `authorization Worker bundle (wrangler.auth.toml, its own upload): ${auth.kib.toFixed(1)} KiB, ${auth.gzipKib.toFixed(1)} KiB gzipped (its own budget in .ci/check-bundle.mjs)`,
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `a / b`, or why there is none: at 1 ms sampling the trivial Worker's median run can hold no sample. */
function ratio(a: number, b: number): string {
  return b > 0 ? (a / b).toFixed(1) : 'none (the trivial Worker recorded no sample: read the 100 us line)';
}

/** Fewer samples than this in the trivial Worker's median run make a 1 ms ratio noise (0 or 1 sample moves it 10x). */
const MIN_COARSE_SAMPLES = 3;

/**
 * The 1 ms line's ratio, judged against the goal only when the trivial Worker's median run holds
 * enough samples to divide by; the 100 µs line is the one the goal reads otherwise.
 */
function coarseRatio(a: number, b: number): string {
  if (b < MIN_COARSE_SAMPLES) return `${ratio(a, b)}, not judged: the trivial Worker's start-up is under ${MIN_COARSE_SAMPLES} samples at 1 ms (the 100 us line is the goal's)`;
  return `${ratio(a, b)} (goal <= 1.5)`;
}

/**
 * An upload directory with the compatibility settings and the Miniflare options (bindings, Durable
 * Objects, KV) wrangler derives from the wrangler.toml it was built from.
 */
export function workerBundle(dir: string, config: string): WorkerBundle {
  const read = unstable_readConfig({ config });
  if (!read.compatibility_date) throw new Error(`${config} names no compatibility_date`);
  // The modules are the upload's, named by the profile; wrangler's rules and root path do not apply.
  // Nor AUTH_SERVER: these Miniflares run one Worker, and what they measure (start-up, /health, an
  // API token's GET /tasks, a delivery) never reaches the authorization Worker (src/auth-worker.ts).
  const { rootPath: _rootPath, modulesRules: _modulesRules, serviceBindings: _serviceBindings, ...options } = unstable_getMiniflareWorkerOptions(config).workerOptions;
  return { dir, modules: uploadModules(dir), compatibilityDate: read.compatibility_date, compatibilityFlags: read.compatibility_flags, options };
}

/**
 * The upload as `wrangler deploy --dry-run` writes it: Groundwork's entry and chunks as
 * scripts/worker-build split them (wrangler.toml's `[build]`), the trivial Worker as wrangler
 * bundles it; its size as .ci/check-bundle.mjs counts it (every module, gzipped together).
 */
export function bundle(outdir: string, args: string[]): { dir: string; file: string; kib: number; gzipKib: number } {
  // `--outfile` is the upload as `check startup --workerBundle` takes it; `--outdir` its modules.
  const file = `${outdir}.bundle`;
  execFileSync(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir, '--outfile', file, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return { dir: outdir, file, ...uploadSize(outdir, uploadModules(outdir)) };
}

/** The main module first (`index.mjs` for Groundwork, `index.js` for what wrangler bundles), then the rest. */
function uploadModules(dir: string): string[] {
  const modules = readdirSync(dir, { recursive: true }).map(String).filter((file) => /\.m?js$/.test(file));
  const main = modules.includes('index.mjs') ? 'index.mjs' : 'index.js';
  if (!modules.includes(main)) throw new Error(`no index.mjs or index.js in ${dir}`);
  return [main, ...modules.filter((module) => module !== main).sort()];
}

/**
 * The start-up profile's busy time and its span. Busy: every interval that ends in a sample not
 * `(idle)` (V8 stamps each sample with the time since the one before, and a gap while the
 * thread compiles shows up as one `(program)` sample after it). The sampler ticks about once a
 * millisecond, so a Worker that starts in a few ms gets a few samples: the span, from the
 * profile's start to its end, is printed beside it.
 */
function startupProfile(bundleFile: string, args: string[], outfile: string): { busyMs: number; spanMs: number } {
  execFileSync(process.execPath, [WRANGLER, 'check', 'startup', '--workerBundle', bundleFile, '--outfile', outfile, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const profile = CpuProfile.parse(JSON.parse(readFileSync(outfile, 'utf8')));
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  let us = 0;
  for (const [i, sample] of profile.samples.entries()) if (names.get(sample) !== '(idle)') us += profile.timeDeltas[i] ?? 0;
  return { busyMs: us / 1000, spanMs: (profile.endTime - profile.startTime) / 1000 };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}
