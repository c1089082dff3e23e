/**
 * @module scripts/worker-build
 * The Worker as it is uploaded: esbuild with code splitting, so the entry module holds only what
 * a cold isolate must evaluate before its first event (the Hono shell and the Durable Object
 * classes' thin fronts, src/index.ts) and everything else is a module of its own, compiled and run
 * when an `import()` first reaches it (issue 28: an isolate that only accepts webhooks never
 * evaluates the pages, MCP or assembly code). wrangler.toml uploads the directory as it is
 * (`no_bundle`, an ESModule rule for the chunks), so `wrangler dev`, `deploy`, `check startup` and
 * `groundwork run` all run these files.
 *
 * What wrangler's own bundler did is kept: the `workerd` export conditions, its target and
 * defines, Node built-ins left to the runtime (nodejs_compat), a CommonJS `require` of one handed
 * the runtime's module, and the stand-ins of scripts/worker-aliases by exact name. Some modules
 * are rewritten as they load (scripts/worker-rewrites: zod's object JIT, js-yaml's unused tags and
 * schemas, the stylesheet's layout left out).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type OutputFile, type Plugin } from 'esbuild';
import { WORKER_ALIASES } from './worker-aliases.ts';
import { minifiedStyles, packageVersionOnly, yamlConstantsPure, zodForWorkerd } from './worker-rewrites.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_BUILTINS = new Set(builtinModules);
/** The upload's main module, wrangler.toml's `main`. */
export const ENTRY = 'index.mjs';

export interface WorkerBuildOptions {
  /** The entry module, relative to the repository root (default `src/index.ts`). */
  entry?: string;
  /** Emptied, then filled with `index.mjs` and `chunks/`. */
  outdir: string;
  /** Default true. Unminified output keeps esbuild's `// path` comment above each source module (bench/startup-schemas). */
  minify?: boolean;
  /**
   * Default false: each module's source map is written beside it (`.mjs.map`, which wrangler
   * does not upload: its only module rule is `**\/*.mjs`, and `upload_source_maps` is unset) but
   * no module names it, since a `//# sourceMappingURL=` line per module is about 1 KiB of the
   * upload gzipped (the chunk hashes do not compress) that the deployed Worker never reads.
   * `wrangler dev` does read them, for stack traces mapped to the sources: scripts/build asks for
   * them there.
   */
  sourceMapComments?: boolean;
}

export interface WorkerModules {
  dir: string;
  /** Every module of the upload, relative to `dir`, the entry (`index.mjs`) first. */
  modules: string[];
  metafile: Metafile;
}

export async function buildWorker(options: WorkerBuildOptions): Promise<WorkerModules> {
  const outdir = resolve(ROOT, options.outdir);
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { index: options.entry ?? 'src/index.ts' },
    outdir,
    // Renamed once built (stableChunkNames): the hash only keeps esbuild's names apart.
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    // `.mjs`, which wrangler's default module rules upload as ES modules (and the Workers tests,
    // which apply wrangler.toml's rules too, leave the dependencies' CommonJS `.js` alone).
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
    // As wrangler targets workerd's V8, emitting `using` and source imports as written.
    target: 'es2024',
    supported: { 'import-source': true, using: true },
    minify: options.minify ?? true,
    // No `__name` wrapper around every function and class: start-up ran one defineProperty per
    // function, and nothing reads a function's or a class's name.
    keepNames: false,
    legalComments: 'none',
    // Text as UTF-8 rather than \u escapes: the messages' typographic quotes and dashes are one
    // character each, not six.
    charset: 'utf8',
    sourcemap: options.sourceMapComments ? 'linked' : 'external',
    metafile: true,
    tsconfig: 'tsconfig.json',
    external: ['cloudflare:*'],
    define: {
      'navigator.userAgent': '"Cloudflare-Workers"',
      'process.env.NODE_ENV': '"production"',
      'global.process.env.NODE_ENV': '"production"',
      'globalThis.process.env.NODE_ENV': '"production"',
    },
    plugins: [exactAliases(WORKER_ALIASES), noJsonSchemaConverter(), zodForWorkerd(), nodeBuiltins(), packageVersionOnly(), yamlConstantsPure(), minifiedStyles()],
    logLevel: 'warning',
  });
  const metafile = stableChunkNames(result.outputFiles, result.metafile);
  const modules = Object.keys(metafile.outputs)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => relative(outdir, resolve(ROOT, file)))
    .sort((a, b) => (a === ENTRY ? -1 : b === ENTRY ? 1 : a < b ? -1 : 1));
  if (modules[0] !== ENTRY) throw new Error(`the Worker build wrote no ${ENTRY} in ${outdir}`);
  return { dir: outdir, modules, metafile };
}

/**
 * Writes the build's files with chunk names that do not depend on a hash: a chunk loaded by
 * `import()` is named after its entry (`chunks/task.mjs`, `chunks/api.mjs`), a shared chunk
 * `chunks/chunk-<n>.mjs`, numbered in the order of the first source module each holds. esbuild's
 * `[hash]` names are random to gzip, and each recurs in every import of its chunk: they were about
 * 1.2 KiB of the upload gzipped, and since the hash covers the source maps' paths, relative to the
 * output, the total moved by a few tenths with where it was built. Nothing caches the Worker's
 * modules by name (an upload replaces them all), so the hash bought nothing here.
 * Returns the metafile with the same names.
 */
function stableChunkNames(files: readonly OutputFile[], metafile: Metafile): Metafile {
  const shared: [string, string][] = [];
  const renames = new Map<string, string>();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.mjs') || basename(dirname(file)) !== 'chunks') continue;
    if (output.entryPoint === undefined) shared.push([file, Object.keys(output.inputs).sort()[0] ?? '']);
    else renames.set(basename(file), `${basename(output.entryPoint, extname(output.entryPoint))}.mjs`);
  }
  shared.sort(([a, first], [b, other]) => (first < other ? -1 : first > other ? 1 : a < b ? -1 : 1));
  shared.forEach(([file], index) => renames.set(basename(file), `chunk-${index + 1}.mjs`));
  if (new Set(renames.values()).size !== renames.size) throw new Error(`two of the Worker's chunks would have one name: ${[...renames.values()].join(', ')}`);
  const names = new RegExp([...renames.keys()].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const rename = (text: string) => (renames.size === 0 ? text : text.replace(names, (name) => renames.get(name) ?? name));
  for (const file of files) {
    const path = rename(file.path);
    mkdirSync(dirname(path), { recursive: true });
    // The modules and their source maps: text, whose chunk names are renamed too.
    writeFileSync(path, rename(file.text));
  }
  return { inputs: metafile.inputs, outputs: JSON.parse(rename(JSON.stringify(metafile.outputs))) as Metafile['outputs'] };
}

/**
 * The upload's size as .ci/check-bundle.mjs and `npm run bench -- startup` count it: its modules,
 * the entry first, gzipped together (level 9), as wrangler totals an upload.
 */
export function uploadSize(dir: string, modules: readonly string[]): { kib: number; gzipKib: number } {
  const code = Buffer.concat(modules.map((module) => readFileSync(join(dir, module))));
  return { kib: code.byteLength / 1024, gzipKib: gzipSync(code, { level: 9 }).byteLength / 1024 };
}

/** esbuild's own `alias` matches prefixes (`pako/lib/inflate.js` too); these are whole names. */
function exactAliases(aliases: Readonly<Record<string, string>>): Plugin {
  const names = Object.keys(aliases).map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return {
    name: 'exact-aliases',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({ path: join(ROOT, aliases[args.path] ?? args.path) }));
    },
  };
}

/** The namespace of zod's JSON Schema converter's stand-ins; .ci/check-bundle.mjs fails an upload with the real one. */
export const JSON_SCHEMA_STAND_IN = 'zod-json-schema-stand-in';

/**
 * zod's JSON Schema converter (core/to-json-schema.js, core/json-schema-processors.js; about 6.6
 * KiB gzipped) replaced by stand-ins with the same exports that throw, naming themselves, when
 * called. zod's classic schemas import it for their `.toJSONSchema()` method and their Standard
 * Schema `jsonSchema` hooks, which the Worker never calls: the MCP tools' JSON Schemas are made at
 * build time (src/mcp/tool-json-schemas). The `create…Method` factories return the refusing
 * function, as the real ones return the converter, since reading `~standard` calls them. The
 * exports are read from the real module, so a zod upgrade that adds one still builds.
 */
function noJsonSchemaConverter(): Plugin {
  const converter = /[\\/]zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors)\.js$/;
  return {
    name: 'no-json-schema-converter',
    setup(b) {
      b.onResolve({ filter: /(to-json-schema|json-schema-processors)\.js$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        return converter.test(path) ? { path, namespace: JSON_SCHEMA_STAND_IN } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: JSON_SCHEMA_STAND_IN }, (args) => ({ contents: jsonSchemaStandIn(readFileSync(args.path, 'utf8'), relative(ROOT, args.path)), loader: 'js' }));
    },
  };
}

export function jsonSchemaStandIn(source: string, name: string): string {
  const declared = [...source.matchAll(/^export (?:async )?(?:function\*?|const|let|var|class) ([\w$]+)/gm)].map((match) => match[1]);
  const renamed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((match) => (match[1] ?? '').split(',').map((part) => part.trim().split(/\s+as\s+/).pop() ?? '')).filter(Boolean);
  const exports = [...new Set([...declared, ...renamed] as string[])];
  const refuse = `function refuse() { throw new Error(${JSON.stringify(`zod's JSON Schema converter is not part of the Worker bundle (${name}, scripts/worker-build): the MCP tools' JSON Schemas are made at build time (src/mcp/tool-json-schemas)`)}); }`;
  const lines = exports.map((id) => (/^create\w*Method$/.test(id) ? `export const ${id} = () => refuse;` : `export const ${id} = refuse;`));
  return `${refuse}\n${lines.join('\n')}\n`;
}

/**
 * Node built-ins stay imports the runtime answers (nodejs_compat); a CommonJS `require` of one
 * (safe-buffer's `require('buffer')`) gets the runtime module's default export, as wrangler does.
 */
function nodeBuiltins(): Plugin {
  return {
    name: 'node-builtins',
    setup(b) {
      b.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (!NODE_BUILTINS.has(name)) return undefined;
        if (args.kind === 'require-call') return { path: name, namespace: 'node-builtin-require' };
        return { path: `node:${name}`, external: true };
      });
      b.onLoad({ filter: /.*/, namespace: 'node-builtin-require' }, (args) => ({ contents: `import lib from 'node:${args.path}';\nmodule.exports = lib;\n`, loader: 'js' }));
    },
  };
}
