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
 * the runtime's module, and the stand-ins of scripts/worker-aliases by exact name.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform, type Metafile, type OutputFile, type Plugin } from 'esbuild';
import { WORKER_ALIASES } from './worker-aliases.ts';

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
    plugins: [exactAliases(WORKER_ALIASES), noJsonSchemaConverter(), zodObjectWithoutJit(), nodeBuiltins(), packageVersionOnly(), yamlConstantsPure(), minifiedStyles()],
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
 * zod's classic `z.object()` is built on `$ZodObjectJIT` (zod 4.6.7's classic/schemas.js), which
 * compiles a parser per object with `new Function` where zod's probe says the runtime allows it
 * (core/util.js `allowsEval`). On Cloudflare the probe answers false (it checks
 * `navigator.userAgent` for "Cloudflare"; test/lib/zod-eval holds it in workerd), so in the Worker
 * every object parses with `$ZodObject`'s parser, which the JIT falls back to. Built on
 * `$ZodObject` directly, the compiler (the JIT's fast path, core/doc.js, the probe) leaves the
 * upload: about 1 KiB gzipped. test/node/worker-zod-object holds the answers to zod's own. A zod
 * whose file no longer has the line fails the build, so an upgrade looks at this again.
 */
export function zodObjectWithoutJit(): Plugin {
  return {
    name: 'zod-object-without-jit',
    setup(b) {
      b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const jit = 'core.$ZodObjectJIT.init(inst, def);';
        if (!source.includes(jit)) throw new Error(`${args.path} has no \`${jit}\` to build z.object on $ZodObject (scripts/worker-build zodObjectWithoutJit)`);
        return { contents: source.replace(jit, 'core.$ZodObject.init(inst, def);'), loader: 'js' };
      });
    },
  };
}

/**
 * js-yaml 5 (5.5.0's dist/js-yaml.mjs, the file this rewrites) builds its tags and schemas at its
 * module's top level (`var binaryTag = defineScalarTag(…)`, `var YAML11_SCHEMA = new Schema([…])`,
 * `DUMP_SCHEMA = YAML11_SCHEMA.withTags(…)`). Those calls only make objects, but esbuild cannot know that, so every schema and tag stayed in the
 * upload although lib/yaml-1.2 uses the core and failsafe schemas alone (YAML 1.1's timestamps,
 * binary, sets and the dumper's schema). Marked pure, the unused ones are dropped.
 */
const YAML_CONSTANT = /^(var [\w$]+ = )((?:defineScalarTag|defineSequenceTag|defineMappingTag)\(|new Schema\()/gm;

/**
 * A tag, schema or options object that spreads something (`var YAML11_SCHEMA = new
 * Schema([...FAILSAFE_SCHEMA.tags, …])`, `DUMP_SCHEMA = YAML11_SCHEMA.withTags({ ...intYaml11Tag,
 * … })`, `implicitFirstChars: [..."0123456789"]`, `DEFAULT_DUMP_OPTIONS = { ...DEFAULT_PRESENTER_OPTIONS,
 * … }`): esbuild keeps a spread even in a pure call's arguments (it may run a getter or an
 * iterator), so such an initializer becomes the answer of a pure function. So do the regular
 * expressions built from template text (`var NS_PLAIN_FLOW_OUT = new RegExp(\`^(?:${SRC_…})$\`,
 * "u")` and the `SRC_…` templates they join): a substitution may run a `toString`, so esbuild kept
 * the dumper's seven expressions of what it may write as a plain scalar (and built them when the
 * chunk loaded), which the reader never tests; about 0.4 KiB gzipped.
 */
const YAML_DERIVED = /^var ([\w$]+) = (new RegExp\(`.*`(?:, "u")?\)|`[^`\n]*\$\{[^`\n]*`|new Schema\(\[[\s\S]*?\n\]\)|(?:define(?:Scalar|Sequence|Mapping)Tag|[\w$]+_SCHEMA\.withTags)\([\s\S]*?\n\}\)|\{\n[\s\S]*?\n\});$/gm;

function pureDerived(whole: string, name: string, value: string): string {
  const spreadsOrCalls = value.includes('...') || (value.startsWith('{') && value.includes('(')) || value.includes('${');
  return spreadsOrCalls ? `var ${name} = /* @__PURE__ */ (() => (${value}))();` : whole;
}

export function yamlConstantsPure(): Plugin {
  return {
    name: 'yaml-constants-pure',
    setup(b) {
      b.onLoad({ filter: /[\\/]js-yaml[\\/]dist[\\/]js-yaml\.mjs$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replace(YAML_DERIVED, pureDerived).replace(YAML_CONSTANT, '$1/* @__PURE__ */ $2'),
        loader: 'js',
      }));
    },
  };
}

/** The inspector's stylesheet module, one template literal without substitutions (src/views/styles). */
const STYLES_MODULE = /^([\s\S]*export const STYLES = )`([^`$\\]*)`;\s*$/;

/**
 * The inspector's stylesheet (src/views/styles), written to be read, goes into the upload minified
 * by esbuild's CSS minifier: the same rules without the layout, 0.1 KiB gzipped less in each Worker
 * (issue 56 goal 4). A module of another shape fails the build rather than ship unminified.
 */
export function minifiedStyles(): Plugin {
  return {
    name: 'minified-styles',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]views[\\/]styles\.ts$/ }, async (args) => {
        const source = STYLES_MODULE.exec(readFileSync(args.path, 'utf8'));
        if (!source) throw new Error(`${args.path}: expected \`export const STYLES = \`...\`;\` with no substitution, to minify`);
        const { code } = await transform(source[2] ?? '', { loader: 'css', minify: true });
        return { contents: `${source[1]}${JSON.stringify(code.trim())};\n`, loader: 'ts' };
      });
    },
  };
}

/**
 * src/lib/version.ts imports package.json for its version (Node allows JSON modules a default
 * import only, so the source cannot name the field): the upload gets the version alone, not the
 * whole manifest with its dependency lists.
 */
function packageVersionOnly(): Plugin {
  const manifest = join(ROOT, 'package.json');
  return {
    name: 'package-version-only',
    setup(b) {
      b.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
        if (args.path !== manifest) return undefined;
        const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
        return { contents: JSON.stringify({ version }), loader: 'json' };
      });
    },
  };
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
