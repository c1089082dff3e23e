/**
 * @module scripts/worker-rewrites
 * Modules the Worker's build (scripts/worker-build) rewrites as it loads them, each to keep out of
 * the upload what the Worker never runs or reads: zod's object JIT, js-yaml's unused tags and
 * schemas, the stylesheet's layout. Each fails the build when its module is no longer the shape it
 * rewrites, so an upgrade or an edit looks at it again. The CLI's command bundles (scripts/build)
 * take the js-yaml rewrite and zod's string formats' too.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform, type Plugin, type PluginBuild } from 'esbuild';

/**
 * zod's classic `z.object()` is built on `$ZodObjectJIT` (zod 4.6.7's classic/schemas.js), which
 * compiles a parser per object with `new Function` where zod's probe says the runtime allows it
 * (core/util.js `allowsEval`). On Cloudflare the probe answers false (it checks
 * `navigator.userAgent` for "Cloudflare"; test/lib/zod-eval holds it in workerd), so in the Worker
 * every object parses with `$ZodObject`'s parser, which the JIT falls back to. Built on
 * `$ZodObject` directly, the compiler (the JIT's fast path, core/doc.js, the probe) leaves the
 * upload: about 1 KiB gzipped. test/node/worker-zod-object holds the answers to zod's own. A zod
 * whose file no longer has a line this rewrites fails the build, so an upgrade looks at this again.
 * The second rewrite: `ZOD_REWRITES` below; and zod's string format methods go (`withoutStringFormats`).
 */
export function zodForWorkerd(): Plugin {
  return {
    name: 'zod-for-workerd',
    setup(b) {
      zodImportedOnlyByUs(b);
      b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/ }, (args) => {
        let source = readFileSync(args.path, 'utf8');
        for (const [from, to] of ZOD_REWRITES) {
          if (!source.includes(from)) throw new Error(`${args.path} has no \`${from}\` to rewrite (scripts/worker-rewrites zodForWorkerd)`);
          source = source.replace(from, to);
        }
        return { contents: withoutStringFormats(source, args.path), loader: 'js' };
      });
    },
  };
}

/**
 * zod 4.6.7's classic build installs its memoizer as the default the first time a container is
 * made (classic/schemas.js `_ensureDefaultMemoizer`): every object, array, record and union then
 * parses through a wrapper that walks the schema on its first parse to learn whether it can recur,
 * and a recursive one (a `z.lazy` tree: the GraphQL answer's entries) keeps a per-parse cache
 * keyed by the input objects, so that input holding a reference cycle parses rather than recurses
 * for ever (core/memoizer.js). The Worker parses only what JSON, KV's JSON or its own code made:
 * JSON holds no reference, so there is no cycle to meet, and without the default the memoizer
 * (about 1 KiB gzipped) leaves the upload and the first parses skip the walk (issue 56 goals 3 and 4).
 * test/node/worker-zod-object holds every answer to zod's own, the recursive schemas' included.
 */
const ZOD_REWRITES: ReadonlyArray<readonly [string, string]> = [
  ['core.$ZodObjectJIT.init(inst, def);', 'core.$ZodObject.init(inst, def);'],
  ['core.config({ memoizer: core.memoizer() });', ';'],
];

/**
 * zod's classic `ZodString` carries a method for each string format (`z.string().email()`,
 * `.uuid()`, `.ipv4()`, `.jwt()`, `.datetime()`... 30 in zod 4.6.7's classic/schemas.js), each
 * naming its format's class, so every format's classic and core classes and their patterns stay in
 * a bundle that uses none of them, and a cold isolate or a CLI run builds each class as the module
 * loads. Groundwork writes its formats as functions (`z.url()`, `z.iso.date()`,
 * `z.iso.datetime()`), which stay: without the methods, the formats it never names leave the
 * bundle (the Worker's upload 1.9 KiB gzipped, the authorization Worker's 3.0). Calling one of the
 * methods would fail where this build runs, so test/node/zod-string-formats holds that no module
 * of ours calls one, and that the functions still check as zod's own; and a dependency that
 * imports zod fails the build (`zodImportedOnlyByUs`), since no test reads its calls.
 */
export function withoutStringFormats(source: string, path: string): string {
  const start = source.indexOf(STRING_FORMATS_START);
  const end = source.indexOf(STRING_FORMATS_END);
  if (start < 0 || end < start) throw new Error(`${path} has no ZodString format methods where scripts/worker-rewrites withoutStringFormats looks for them`);
  return `${source.slice(0, start + STRING_FORMATS_KEPT.length)}${source.slice(end)}`;
}

/** ZodString's own constructor, then its methods' object (`}, {`), whose first method is `email`. */
const STRING_FORMATS_KEPT = '    _ZodString.init(inst, def);\n}, {';
const STRING_FORMATS_START = `${STRING_FORMATS_KEPT}\n    email(params) {`;
/** The methods' object ends where `string()` follows it. */
const STRING_FORMATS_END = '\n});\nexport function string(params)';

/** The CLI's command bundles (scripts/build): zod's string format methods out (`withoutStringFormats`). */
export function zodWithoutStringFormats(): Plugin {
  return {
    name: 'zod-without-string-formats',
    setup(b) {
      zodImportedOnlyByUs(b);
      b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/ }, (args) => ({ contents: withoutStringFormats(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
    },
  };
}

/**
 * Fails the build when a package other than zod imports zod: the bundle's zod lacks the string
 * format methods (`withoutStringFormats`), and a dependency's calls to them are not ours to check.
 */
function zodImportedOnlyByUs(b: PluginBuild): void {
  b.onResolve({ filter: /^zod(?:\/|$)/ }, (args) => {
    const dependency = /[\\/]node_modules[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer);
    if (!dependency) return undefined;
    return { errors: [{ text: `${args.importer} imports zod, whose string format methods this build leaves out (scripts/worker-rewrites withoutStringFormats): check that it calls none, then let it through here` }] };
  });
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
 * whole manifest with its dependency lists. So do the CLI's scripts (scripts/build): less for
 * every run to parse.
 */
export function packageVersionOnly(): Plugin {
  const manifest = fileURLToPath(new URL('../package.json', import.meta.url));
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
