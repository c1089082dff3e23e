/**
 * @module cli/run/worker-host
 * The real Worker in Miniflare: the bundle `wrangler deploy --dry-run` built into `dist/worker/`
 * and the Miniflare options wrangler derived from wrangler.toml at build time (Durable Objects,
 * KV namespaces, vars, compatibility date and flags), with Durable Object and KV state persisted
 * in a directory so a later run starts where this one stopped.
 */
import { existsSync, readFileSync } from 'node:fs';
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

export interface WorkerHost {
  /** `http://127.0.0.1:<port>/` */
  url: URL;
  dispose(): Promise<void>;
}

export type WorkerBundle = { ok: true; dir: string; options: Record<string, unknown> } | { ok: false; reason: string };

/** The built bundle beside this code: `dist/worker/` of the groundwork package. */
export function findWorkerBundle(): WorkerBundle {
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const dir = root === undefined ? undefined : join(root, 'dist', 'worker');
  if (dir === undefined || !existsSync(join(dir, 'index.js')) || !existsSync(join(dir, 'miniflare-options.json'))) {
    return { ok: false, reason: 'the Worker bundle (dist/worker/) is missing: run `npm run build` in the groundwork package' };
  }
  const options: unknown = JSON.parse(readFileSync(join(dir, 'miniflare-options.json'), 'utf8'));
  if (typeof options !== 'object' || options === null) return { ok: false, reason: `${dir}/miniflare-options.json is not an object: rebuild with \`npm run build\`` };
  // wrangler writes the assets directory (the OpenAPI document) as an absolute path of the machine that built it.
  const assets = 'assets' in options && typeof options.assets === 'object' && options.assets !== null ? { assets: { ...options.assets, directory: join(dir, '..', 'assets') } } : {};
  return { ok: true, dir, options: { ...options, ...assets } };
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
      modules: true,
      modulesRoot: bundle.dir,
      scriptPath: join(bundle.dir, 'index.js'),
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
    if (existsSync(manifest) && /"name":\s*"groundwork"/.test(readFileSync(manifest, 'utf8'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
