/**
 * @module cli/run/worker-host
 * The real Worker in Miniflare: the modules `npm run build` wrote into `dist/worker/` (the upload
 * wrangler.toml deploys) and the Miniflare options wrangler derived from wrangler.toml at build time (Durable Objects,
 * KV namespaces, vars, compatibility date and flags), with Durable Object and KV state persisted
 * in a directory so a later run starts where this one stopped. Beside it, in the same Miniflare,
 * the authorization Worker (`dist/auth-worker/`, wrangler.auth.toml) that the main Worker's
 * AUTH_SERVER service binding names: people's sign-ins and token checks, as deployed. Both get
 * the same vars and secrets, and share the OAUTH_KV namespace (one id, one Miniflare).
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

/** One Worker's upload: `modules`, every module relative to `dir`, the entry (`index.mjs`) first. */
export interface BuiltWorker {
  dir: string;
  modules: string[];
  options: Record<string, unknown>;
}

/** The main Worker and the authorization Worker its AUTH_SERVER binding names. */
export type WorkerBundle = ({ ok: true; auth: BuiltWorker } & BuiltWorker) | { ok: false; reason: string };

/** wrangler.auth.toml's `name`, which wrangler.toml's AUTH_SERVER service binding names. */
const AUTH_WORKER_NAME = 'groundwork-auth';

/** The built bundles beside this code: `dist/worker/` and `dist/auth-worker/` of the groundwork package. */
export function findWorkerBundle(): WorkerBundle {
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  if (root === undefined) return { ok: false, reason: 'the Worker bundle (dist/worker/) is missing: run `npm run build` in the groundwork package' };
  const main = builtWorker(join(root, 'dist', 'worker'), 'the Worker bundle (dist/worker/)');
  if (!main.ok) return main;
  const auth = builtWorker(join(root, 'dist', 'auth-worker'), 'the authorization Worker bundle (dist/auth-worker/)');
  if (!auth.ok) return auth;
  return { ...main.worker, ok: true, auth: auth.worker };
}

function builtWorker(dir: string, what: string): { ok: true; worker: BuiltWorker } | { ok: false; reason: string } {
  if (!existsSync(join(dir, ENTRY)) || !existsSync(join(dir, 'miniflare-options.json'))) {
    return { ok: false, reason: `${what} is missing: run \`npm run build\` in the groundwork package` };
  }
  const options: unknown = JSON.parse(readFileSync(join(dir, 'miniflare-options.json'), 'utf8'));
  if (typeof options !== 'object' || options === null) return { ok: false, reason: `${dir}/miniflare-options.json is not an object: rebuild with \`npm run build\`` };
  // wrangler writes the assets directory (the OpenAPI document) as an absolute path of the machine that built it.
  const assets = 'assets' in options && typeof options.assets === 'object' && options.assets !== null ? { assets: { ...options.assets, directory: join(dir, '..', 'assets') } } : {};
  return { ok: true, worker: { dir, modules: uploadModules(dir), options: { ...options, ...assets } } };
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
  const worker = (built: BuiltWorker, name: string) => {
    const tomlVars = typeof built.options.bindings === 'object' && built.options.bindings !== null ? built.options.bindings : {};
    return {
      ...built.options,
      name,
      modulesRoot: built.dir,
      modules: built.modules.map((module) => ({ type: 'ESModule' as const, path: join(built.dir, module) })),
      bindings: { ...tomlVars, ...options.bindings },
    };
  };
  const before = new Map(INTERRUPTS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      // The first Worker answers the port; the second is reached only through its binding.
      workers: [worker(bundle, 'groundwork'), worker(bundle.auth, AUTH_WORKER_NAME)],
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
