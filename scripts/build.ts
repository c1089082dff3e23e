/**
 * `npm run build`, also run by `npm install` and `npm ci` (the `prepare` script), so a fresh clone
 * has a working `dist/`:
 * - `dist/cli.js` (+ `dist/demo.js`, `dist/start.js`, `dist/chunks/`): the CLI bundled by
 *   esbuild into plain JavaScript for Node 22+, so it needs neither type stripping nor npm's
 *   working directory. `miniflare` stays external: it is a dependency with its own binary.
 * - `dist/cli.cjs`: the same CLI as one CommonJS script, which the launcher requires on a current
 *   Node (no ES module loader starts on a run; cli/script-entry).
 * - `dist/groundwork.cjs`: the package's `bin`, which finds a Node that can run `dist/cli.js` (the
 *   one running it, the package's own, or one on PATH: cli/launcher). CommonJS for Node 14 and
 *   later, since the `node` that starts it may be older than the CLI needs.
 * - `dist/worker/`: the Worker's upload as scripts/worker-build splits it (the entry module and
 *   the chunks it imports on first use), which wrangler.toml deploys as it is, plus the Miniflare
 *   options wrangler derives from wrangler.toml, so `groundwork run` starts the deployed modules
 *   with the deployed bindings without loading wrangler at run time.
 * - `dist/auth-worker/`: the authorization Worker's upload (src/auth-worker.ts, wrangler.auth.toml),
 *   built the same way, with its Miniflare options, which `groundwork run` starts beside the main
 *   Worker (the main Worker's AUTH_SERVER binding).
 * - `docs/openapi.json` and its copy `dist/assets/openapi.json`: the HTTP API's OpenAPI document,
 *   generated from the routes' zod schemas (src/openapi/), served by the Worker as an asset.
 * - `src/mcp/tool-schemas.json`: the MCP tools' input and output schemas as JSON Schema, made from
 *   their zod schemas (mcp/tool-json-schemas), which `tools/list` answers with, so the Worker
 *   carries no JSON Schema converter. Built before the Worker, which imports it.
 * The Worker is rebuilt only when an input is newer than it; `--force` always. `--worker` builds
 * only what wrangler serves (the OpenAPI asset, the tools' schemas and the Worker): wrangler.toml's
 * `[build]` command; `--auth-worker` only the authorization Worker: wrangler.auth.toml's (`wrangler
 * dev` with both configurations runs both commands at once, so neither writes the other's files).
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { SCRIPT_END, SCRIPT_START } from '../src/cli/code-cache.ts';
import { COMMAND_BUNDLES, type CommandBundle } from '../src/cli/command-bundles.ts';
import { buildWorker as buildWorkerModules, ENTRY as WORKER_ENTRY } from './worker-build.ts';
import { packageVersionOnly, yamlConstantsPure, zodWithoutStringFormats } from './worker-rewrites.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const workerDir = join(dist, 'worker');
const authWorkerDir = join(dist, 'auth-worker');
const force = process.argv.includes('--force');
/**
 * Under `wrangler dev` the Worker's modules name their source maps, so its stack traces point at
 * the sources; what `deploy` uploads does not (scripts/worker-build). wrangler runs the `[build]`
 * command with `WRANGLER_COMMAND` set to its command (`dev`, `deploy`, …; wrangler 4.164.0,
 * run-custom-build), and a build made for the other mode is stale.
 */
const sourceMapComments = process.env['WRANGLER_COMMAND'] === 'dev';
const workerOnly = process.argv.includes('--worker');
const authWorkerOnly = process.argv.includes('--auth-worker');

/** Each Worker's upload: its entry, its directory, its wrangler configuration. */
const WORKERS = {
  main: { entry: 'src/index.ts', dir: workerDir, config: 'wrangler.toml' },
  auth: { entry: 'src/auth-worker.ts', dir: authWorkerDir, config: 'wrangler.auth.toml' },
} as const;

if (!authWorkerOnly) {
  // The tools' schemas first: the OpenAPI document registers ids for shared schemas in zod's global
  // registry (Knowledge, Error, …), which would turn them into `$defs` the Worker never serves.
  await writeToolSchemas();
  await writeOpenApi();
  if (!workerOnly) await Promise.all([buildCli(), buildCliScript(), buildCommandBundles(), buildLauncher()]);
  if (force || workerIsStale(WORKERS.main)) await buildWorker(WORKERS.main);
}
if (!workerOnly && (force || workerIsStale(WORKERS.auth))) await buildWorker(WORKERS.auth);

/**
 * docs/openapi.json from the routes' schemas (src/openapi/), and the copy the Worker serves at
 * GET /openapi.json through its ASSETS binding (dist/assets/, wrangler.toml's `[assets]`), so
 * neither the document nor its generator is in the Worker bundle. Written only when it changed.
 */
async function writeOpenApi(): Promise<void> {
  const { openApiText } = await import('../src/openapi/document.ts');
  const text = await openApiText();
  for (const path of [join(root, 'docs', 'openapi.json'), join(dist, 'assets', 'openapi.json')]) {
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}

/** src/mcp/tool-schemas.json, written only when it changed (so the Worker is not rebuilt for nothing). */
async function writeToolSchemas(): Promise<void> {
  const { toolSchemasText } = await import('../src/mcp/tool-json-schemas.ts');
  const text = toolSchemasText();
  const path = join(root, 'src', 'mcp', 'tool-schemas.json');
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeFileSync(path, text);
}

async function buildCli(): Promise<void> {
  rmSync(join(dist, 'chunks'), { recursive: true, force: true });
  const common: BuildOptions = {
    absWorkingDir: root,
    outdir: dist,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: ['miniflare'],
    legalComments: 'none',
    // Less source for Node to read, hash and deserialise from its compile cache on every run;
    // identifiers stay, so a stack trace from a user still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [packageVersionOnly()],
    logLevel: 'warning',
  };
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM output has none.
  const banner = "import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);";
  await Promise.all([
    build({ ...common, entryPoints: { demo: 'src/cli/demo.ts', start: 'src/cli/start.ts' }, banner: { js: banner } }),
    // The bin on its own, sharing no chunk with the others: what every run evaluates as an ES
    // module is cli.js alone, importing no built-in (cli/main says why). Its `require`, for the
    // chunks it imports on demand, comes without an import; an old Node has none and needs none.
    build({ ...common, entryPoints: { cli: 'src/cli/main.ts' }, banner: { js: 'const require = process.getBuiltinModule?.("node:module").createRequire(import.meta.url);' } }),
  ]);
}

/**
 * `dist/cli.cjs`: the same commands as `dist/cli.js` as one CommonJS script (cli/script-entry),
 * which the launcher requires, so no ES module loader starts on a run. It holds the dispatcher
 * and the code-cache loader, never a command: those are the bundles below, and `import()`
 * of `dist/cli.js` (for `groundwork run`) is the only import it makes at run time.
 */
async function buildCliScript(): Promise<void> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/script-entry.ts'],
    outfile: join(dist, 'cli.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    plugins: [packageVersionOnly()],
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const command = inputs.find((input) => Object.values(COMMAND_BUNDLES).includes(input as (typeof COMMAND_BUNDLES)[CommandBundle]));
  if (command) throw new Error(`dist/cli.cjs: a command is bundled into the dispatcher (${command}); commands load from dist/commands/`);
}

async function buildLauncher(): Promise<void> {
  const outfile = join(dist, 'groundwork.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/launcher/launcher.ts'],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node14',
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'none',
    // Every run parses it before anything else, and the lazily imported paths for an older Node
    // with it: minified, a third of the text (issue 56).
    minify: true,
    plugins: [packageVersionOnly()],
    logLevel: 'warning',
  });
  // npm sets the mode when it links a bin; a checkout run as ./dist/groundwork.cjs needs it too.
  chmodSync(outfile, 0o755);
}

/**
 * `dist/commands/<name>.cjs`: each command the bin runs per invocation, as one script that
 * cli/code-cache runs with V8's code cache taken after a run (Node's compile cache, used for the
 * ESM above, holds no function compiled after loading). A script has no `import.meta` and no
 * loader for `import()`, so the wrapper passes the URL and a dynamic import fails the build.
 */
async function buildCommandBundles(): Promise<void> {
  const outdir = join(dist, 'commands');
  rmSync(outdir, { recursive: true, force: true });
  const common: BuildOptions = {
    absWorkingDir: root,
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['miniflare'],
    define: { 'import.meta.url': '__importMetaUrl' },
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    metafile: true,
    // js-yaml's YAML 1.1 tags and schemas and its dumper's schema, which lib/yaml-1.2 never uses,
    // are built at its top level: dropped as from the Worker, so no run evaluates them (issue 56).
    // So are zod's string format methods, which no module calls (scripts/worker-rewrites).
    plugins: [yamlConstantsPure(), zodWithoutStringFormats(), packageVersionOnly()],
    logLevel: 'warning',
  };
  const [result] = await Promise.all([
    // Each command as the function cli/code-cache compiles as it reads it (its SCRIPT_START, SCRIPT_END).
    build({ ...common, entryPoints: COMMAND_BUNDLES, banner: { js: SCRIPT_START }, footer: { js: SCRIPT_END } }),
    // The loader that runs them (cli/code-cache) is CommonJS too: cli/main requires it.
    build({ ...common, entryPoints: { 'code-cache': 'src/cli/code-cache.ts' } }),
  ]);
  for (const [file, output] of Object.entries(result.metafile?.outputs ?? {})) {
    const dynamic = output.imports.filter((entry) => entry.kind === 'dynamic-import');
    if (dynamic.length > 0) throw new Error(`${file}: a command bundle cannot import() at run time (${dynamic.map((entry) => entry.path).join(', ')})`);
    asciiOnly(join(root, file));
  }
}

/**
 * A command bundle in ASCII, so cli/code-cache hands V8 a one-byte string (half the memory of the
 * two-byte one UTF-8 decodes to, ~130 fresh pages and ~2.5 ms a run). esbuild's default ASCII
 * output still leaves regular expression literals as written (evanw/esbuild#4205, open for
 * esbuild 0.28): `/[“”]/` in providers/memory/named-paths made every bundle UTF-8. In a regular
 * expression, as in a string, `\u201c` means the character itself; only its `source` spelling differs.
 */
function asciiOnly(path: string): void {
  const text = readFileSync(path, 'utf8');
  if (/^[\x00-\x7f]*$/.test(text)) return;
  writeFileSync(path, text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

type WorkerTarget = (typeof WORKERS)[keyof typeof WORKERS];

function workerIsStale(worker: WorkerTarget): boolean {
  const bundle = join(worker.dir, WORKER_ENTRY);
  if (!existsSync(bundle) || !existsSync(join(worker.dir, 'miniflare-options.json'))) return true;
  if (readFileSync(bundle, 'utf8').includes('//# sourceMappingURL=') !== sourceMapComments) return true;
  const built = statSync(bundle).mtimeMs;
  const inputs = ['src', 'durable-objects', worker.config, 'package-lock.json', 'scripts/worker-build.ts', 'scripts/worker-rewrites.ts', 'scripts/worker-aliases.ts'].map((path) => join(root, path));
  return inputs.some((input) => newestMtime(input) > built);
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

async function buildWorker(worker: WorkerTarget): Promise<void> {
  await buildWorkerModules({ entry: worker.entry, outdir: worker.dir, sourceMapComments });
  writeFileSync(join(worker.dir, 'miniflare-options.json'), `${JSON.stringify(await miniflareOptionsFromWranglerToml(worker.config), null, 2)}\n`);
}

/** wrangler's own translation of a wrangler configuration into Miniflare worker options (bindings, flags, date). */
async function miniflareOptionsFromWranglerToml(config: string): Promise<Record<string, unknown>> {
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler');
  // `groundwork run` names the modules itself (cli/run/worker-host), so wrangler's module rules
  // (and its root path, an absolute path of this machine) do not apply.
  const { rootPath: _rootPath, modulesRules: _modulesRules, ...options } = unstable_getMiniflareWorkerOptions(join(root, config)).workerOptions;
  return options;
}
