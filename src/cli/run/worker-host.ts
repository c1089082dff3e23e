/**
 * @module cli/run/worker-host
 * The real Worker in Miniflare: the modules `npm run build` wrote into `dist/worker/` (the upload
 * wrangler.toml deploys) and the Miniflare options wrangler derived from wrangler.toml at build time (Durable Objects,
 * KV namespaces, vars, compatibility date and flags), with Durable Object and KV state persisted
 * in a directory so a later run starts where this one stopped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WorkerHostOptions {
  /** Where Durable Object and KV state persist. */
  stateDir: string;
  /** Vars and secrets on top of wrangler.toml's `[vars]`. */
  bindings: Record<string, string>;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Worker log lines (console output, uncaught errors). */
  onLog(level: string, message: string): void;
  /**
   * The caller stops the host itself on Ctrl-C and SIGTERM. Miniflare otherwise answers them by
   * killing workerd and exiting the process at once, before the caller can stop what it started.
   */
  handlesInterrupts?: boolean;
}

const INTERRUPTS = ['SIGINT', 'SIGTERM'] as const;
/** The upload's main module (scripts/worker-build, wrangler.toml's `main`). */
const ENTRY = 'index.mjs';

export interface WorkerHost {
  /** `http://127.0.0.1:<port>/` */
  url: URL;
  dispose(): Promise<void>;
}

/** `modules`: every module of the upload, relative to `dir`, the entry (`index.mjs`) first. */
export type WorkerBundle = { ok: true; dir: string; modules: string[]; options: Record<string, unknown> } | { ok: false; reason: string };

/** The built bundle beside this code: `dist/worker/` of the groundwork package. */
export function findWorkerBundle(): WorkerBundle {
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const dir = root === undefined ? undefined : join(root, 'dist', 'worker');
  if (dir === undefined || !existsSync(join(dir, ENTRY)) || !existsSync(join(dir, 'miniflare-options.json'))) {
    return { ok: false, reason: 'the Worker bundle (dist/worker/) is missing: run `npm run build` in the groundwork package' };
  }
  const options: unknown = JSON.parse(readFileSync(join(dir, 'miniflare-options.json'), 'utf8'));
  if (typeof options !== 'object' || options === null) return { ok: false, reason: `${dir}/miniflare-options.json is not an object: rebuild with \`npm run build\`` };
  // wrangler writes the assets directory (the OpenAPI document) as an absolute path of the machine that built it.
  const assets = 'assets' in options && typeof options.assets === 'object' && options.assets !== null ? { assets: { ...options.assets, directory: join(dir, '..', 'assets') } } : {};
  return { ok: true, dir, modules: uploadModules(dir), options: { ...options, ...assets } };
}

/** The entry and the chunks it imports on first use (scripts/worker-build), as wrangler.toml's ESModule rule uploads them. */
function uploadModules(dir: string): string[] {
  const chunks = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.mjs') && file !== ENTRY)
    .sort();
  return [ENTRY, ...chunks];
}

let miniflareModule: Promise<typeof import('miniflare')> | undefined;

/**
 * Starts loading Miniflare (a second or more of a cold start goes to loading its code), so the
 * caller can overlap it with its own preparation.
 */
export function preloadMiniflare(): Promise<typeof import('miniflare')> {
  miniflareModule ??= import('miniflare');
  return miniflareModule;
}

export async function startWorker(bundle: Extract<WorkerBundle, { ok: true }>, options: WorkerHostOptions): Promise<WorkerHost> {
  const { Miniflare, convertV4MiniflareOptions } = await preloadMiniflare();
  const fromToml = bundle.options;
  const tomlVars = typeof fromToml.bindings === 'object' && fromToml.bindings !== null ? fromToml.bindings : {};
  const before = new Map(INTERRUPTS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      ...fromToml,
      name: 'groundwork',
      modulesRoot: bundle.dir,
      modules: bundle.modules.map((module) => ({ type: 'ESModule' as const, path: join(bundle.dir, module) })),
      bindings: { ...tomlVars, ...options.bindings },
      host: '127.0.0.1',
      port: options.port ?? 0,
      resourcePersistencePath: options.stateDir,
      handleStructuredLogs: ({ level, message }) => options.onLog(level, message),
    }),
  );
  if (options.handlesInterrupts) {
    for (const signal of INTERRUPTS) for (const listener of process.listeners(signal)) if (!before.get(signal)?.has(listener)) process.off(signal, listener);
  }
  try {
    const url = await miniflare.ready;
    return { url, dispose: () => miniflare.dispose() };
  } catch (error) {
    await miniflare.dispose().catch(() => undefined);
    throw error;
  }
}

function packageRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && /"name":\s*"groundwork-context"/.test(readFileSync(manifest, 'utf8'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
