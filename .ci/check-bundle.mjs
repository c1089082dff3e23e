// Bundles the Worker as `wrangler deploy` would (`--dry-run`, wrangler.toml's minify) and fails when
// the upload is above the budget, gzipped as Cloudflare measures it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// 300 until the inspector's server-rendered pages (Hono JSX, ~20 KiB gzipped) came in; Cloudflare
// itself allows 3 MiB (Free) or 10 MiB (Paid): the budget is ours, to keep cold starts small.
const BUDGET_KIB = 320;
const out = mkdtempSync(join(tmpdir(), 'groundwork-bundle-'));
try {
  execFileSync(process.execPath, ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const code = readFileSync(join(out, 'index.js'));
  const gzipKib = gzipSync(code, { level: 9 }).byteLength / 1024;
  console.log(`bundle: ${(code.byteLength / 1024).toFixed(1)} KiB, ${gzipKib.toFixed(1)} KiB gzipped (budget ${BUDGET_KIB} KiB gzipped)`);
  if (gzipKib > BUDGET_KIB) {
    console.log(`bundle is over budget by ${(gzipKib - BUDGET_KIB).toFixed(1)} KiB`);
    process.exitCode = 1;
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
