/**
 * `npm run types`: `wrangler types` for worker-configuration.d.ts, with the Durable Object classes
 * and the main module typed from the sources. wrangler.toml's `main` is the build's output
 * (dist/worker/index.mjs, scripts/worker-build), which has no types; src/index.ts is the module it
 * is built from and exports the same classes. Both configurations, so the main Worker's
 * AUTH_SERVER binding is typed as the authorization Worker's entrypoint (src/auth-worker.ts) and
 * its RPC method `validateToken`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = `${root}worker-configuration.d.ts`;
execFileSync(process.execPath, [`${root}node_modules/wrangler/bin/wrangler.js`, 'types', '--env-interface', 'Env', 'worker-configuration.d.ts', '-c', 'wrangler.toml', '-c', 'wrangler.auth.toml'], { cwd: root, stdio: 'inherit' });
const generated = readFileSync(file, 'utf8');
const typed = generated.replaceAll('import("./dist/worker/index")', 'import("./src/index")').replaceAll('import("./dist/auth-worker/index")', 'import("./src/auth-worker")');
if (!generated.includes('import("./dist/worker/index")') || !generated.includes('import("./dist/auth-worker/index")')) {
  throw new Error('wrangler types no longer imports ./dist/worker/index and ./dist/auth-worker/index: check worker-configuration.d.ts by hand');
}
writeFileSync(file, typed);
