/**
 * @module test/setup/auth-worker
 * The authorization Worker (src/auth-worker.ts, wrangler.auth.toml) as the Workers projects'
 * auxiliary Worker: the Workers Vitest integration runs the Worker under test from its sources
 * and any other Worker from built JavaScript, listed in `miniflare.workers` by name
 * (@cloudflare/vitest-plugin 1.5.0, "Configuration": auxiliary Workers; a service binding of the
 * Worker under test names it). The main Worker's `AUTH_SERVER` (wrangler.toml `[[services]]`)
 * reaches it as in a deployment: `fetch` for the forwarded paths, RPC for `validateToken`.
 *
 * Global setup builds `dist/auth-worker/` when a source is newer than it (scripts/build.ts
 * `--auth-worker`, which `npm test`'s pretest runs too), so a single `npx vitest run` never tests
 * an old authorization Worker. Its upload is one module (no chunks), which an auxiliary Worker
 * needs: the integration loads only the module it is given.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = `${ROOT}dist/auth-worker/`;
/** wrangler.auth.toml's `name`, which wrangler.toml's service binding names. */
export const AUTH_WORKER_NAME = 'groundwork-auth';

export default function setup(): void {
  execFileSync(process.execPath, [`${ROOT}scripts/build.ts`, '--auth-worker'], { cwd: ROOT, stdio: 'inherit' });
}

interface BuiltOptions {
  compatibilityDate: string;
  compatibilityFlags: string[];
  kvNamespaces: Record<string, { id: string }>;
}

/** The auxiliary Worker with the deployment's compatibility settings and KV (wrangler.auth.toml, as built) and `bindings`. */
export function authWorker(bindings: Record<string, string>) {
  const optionsFile = `${DIR}miniflare-options.json`;
  if (!existsSync(optionsFile) || !existsSync(`${DIR}index.mjs`)) throw new Error(`${DIR} is missing: run \`npm run build\` (or \`node scripts/build.ts --auth-worker\`)`);
  const built = JSON.parse(readFileSync(optionsFile, 'utf8')) as BuiltOptions;
  return {
    name: AUTH_WORKER_NAME,
    modules: true,
    scriptPath: `${DIR}index.mjs`,
    compatibilityDate: built.compatibilityDate,
    compatibilityFlags: built.compatibilityFlags,
    // The same namespace id as the main Worker's OAUTH_KV: one Miniflare, one namespace, as deployed.
    kvNamespaces: Object.fromEntries(Object.entries(built.kvNamespaces).map(([binding, { id }]) => [binding, id])),
    bindings,
  };
}
