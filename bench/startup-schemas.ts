/**
 * @module bench/startup-schemas
 * How many zod schemas and checks the Worker's modules build when they are evaluated, and which
 * modules build them. Start-up evaluates the entry alone (scripts/worker-build splits the upload),
 * so it should build none; every other module is evaluated when a request or an object first
 * imports it, and what its top level builds is paid then. Most of that cost is zod construction
 * (issue 28), so the count shows a module that builds its schemas eagerly (`lib/lazy-schema`).
 * An unminified build keeps esbuild's `// path` comment above each source module; zod's
 * `$constructor` gets one line that records a stack per instance; Miniflare evaluates the entry,
 * then every chunk, and the first frame outside zod names the module.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import * as z from 'zod';
import { buildWorker, ENTRY } from '../scripts/worker-build.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The first statement of every zod instance's constructor (zod/v4/core/core.js), as esbuild prints it. */
const CONSTRUCTOR = '  function _(def) {\n    const inst = params?.Parent ? newError(Definition) : this;';
const COUNTER = '  function _(def) {\n    { Error.stackTraceLimit = 40; (globalThis.__schemaStacks ??= []).push(new Error().stack); }\n    const inst = params?.Parent ? newError(Definition) : this;';
const TOP = 5;
const LAZY_HELPERS = new Set(['src/lib/lazy-schema.ts', 'src/lib/once.ts']);

export interface SchemaCount {
  total: number;
  /** Of the total, `z.lazy` wrappers (`lib/lazy-schema`), which build nothing until first use. */
  lazy: number;
  /** Schemas and checks built by each module, most first, and how many of them are lazy wrappers. */
  byModule: Array<{ module: string; count: number; lazy: number }>;
}

export interface StartupSchemas {
  /** Built while a cold isolate evaluates the entry, before its first event. */
  startup: SchemaCount;
  /** Built by the top level of every module of the upload, as requests and objects load them. */
  everyModule: SchemaCount;
}

/** Undefined when zod's constructor no longer reads as this count expects (a zod upgrade). */
export async function countStartupSchemas(): Promise<StartupSchemas | undefined> {
  const out = mkdtempSync(join(tmpdir(), 'groundwork-bench-schemas-'));
  try {
    const built = await buildWorker({ outdir: out, minify: false });
    const sources = new Map(built.modules.map((module) => [module, readFileSync(join(out, module), 'utf8')]));
    const zodModule = [...sources].find(([, code]) => code.includes(CONSTRUCTOR))?.[0];
    if (zodModule === undefined) return undefined;
    sources.set(zodModule, (sources.get(zodModule) ?? '').replace(CONSTRUCTOR, COUNTER));
    const stacks = await evaluate(sources);
    const lines = new Map([...sources].map(([module, code]) => [module, moduleOfLine(code)]));
    return { startup: count(stacks.startup, lines), everyModule: count([...stacks.startup, ...stacks.chunks], lines) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function benchStartupSchemas(): Promise<string> {
  const counted = await countStartupSchemas();
  if (!counted) return "zod schemas built at start-up: not counted (zod's constructor no longer reads as this bench expects; see bench/startup-schemas.ts)";
  const { startup, everyModule } = counted;
  const top = everyModule.byModule.slice(0, TOP).map(({ module, count }) => `${module} ${count}`);
  return (
    `zod schemas and checks built at start-up: ${startup.total.toLocaleString('en-US')}; by the top level of every module, as requests and objects load them: ` +
    `${everyModule.total.toLocaleString('en-US')} in ${everyModule.byModule.length} modules, ${everyModule.lazy} of them lazy wrappers that build on first use (most: ${top.join(', ')})`
  );
}

function count(stacks: readonly string[], lines: ReadonlyMap<string, readonly string[]>): SchemaCount {
  const byModule = new Map<string, { module: string; count: number; lazy: number }>();
  let lazy = 0;
  for (const stack of stacks) {
    const module = firstModuleOutsideZod(stack, lines);
    const counted = byModule.get(module) ?? { module, count: 0, lazy: 0 };
    const isLazy = /^\s+at new ZodLazy\b/m.test(stack.split('\n')[1] ?? '');
    counted.count++;
    if (isLazy) counted.lazy++, lazy++;
    byModule.set(module, counted);
  }
  return { total: stacks.length, lazy, byModule: [...byModule.values()].sort((a, b) => b.count - a.count) };
}

const Stacks = z.object({ startup: z.array(z.string()), chunks: z.array(z.string()) });

/** The entry first, as a cold isolate evaluates it; then every chunk, each with what it imports. */
async function evaluate(sources: ReadonlyMap<string, string>): Promise<z.infer<typeof Stacks>> {
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml') });
  const chunks = [...sources.keys()].filter((module) => module !== ENTRY);
  const counter = `export default { async fetch() {
    globalThis.__schemaStacks = [];
    await import('./${ENTRY}');
    const startup = globalThis.__schemaStacks.splice(0);
    for (const chunk of ${JSON.stringify(chunks)}) await import('./' + chunk);
    return Response.json({ startup, chunks: globalThis.__schemaStacks });
  } };`;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: 'schemas',
      modules: [{ type: 'ESModule', path: 'counter.mjs', contents: counter }, ...[...sources].map(([path, contents]) => ({ type: 'ESModule' as const, path, contents }))],
      compatibilityDate: config.compatibility_date ?? '2026-11-01',
      compatibilityFlags: config.compatibility_flags,
    }),
  );
  try {
    const response = await mf.dispatchFetch('https://example.com');
    if (!response.ok) throw new Error(`the counting Worker answered ${response.status}: ${await response.text()}`);
    return Stacks.parse(await response.json());
  } finally {
    await mf.dispose();
  }
}

/** For each 1-based line of a module, the source module esbuild's nearest `// path` comment above it names. */
function moduleOfLine(code: string): string[] {
  const modules: string[] = [''];
  let current = '?';
  for (const line of code.split('\n')) {
    const comment = /^\/\/ ((?:src|durable-objects|node_modules)\/\S+)$/.exec(line);
    if (comment) current = comment[1] ?? current;
    modules.push(current);
  }
  return modules;
}

function firstModuleOutsideZod(stack: string, lines: ReadonlyMap<string, readonly string[]>): string {
  for (const frame of stack.split('\n').slice(1)) {
    const at = /([\w./-]+\.mjs):(\d+):\d+/.exec(frame);
    if (!at) continue;
    const module = lines.get((at[1] ?? '').replace(/^.*?((?:chunks\/)?[\w-]+\.mjs)$/, '$1'))?.[Number(at[2])] ?? '?';
    // The module that asked for a lazy schema built it, not the helper.
    if (!module.includes('node_modules/zod/') && !LAZY_HELPERS.has(module)) return module;
  }
  return '?';
}
